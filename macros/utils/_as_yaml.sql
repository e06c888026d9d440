{#
  A value as YAML flow text that reads back as the same value: what dbt's --vars gave (YAML read: a date, a
  datetime, numbers, strings, lists, mappings). JSON cannot carry a date or a datetime (tojson fails on them), and
  writes a character beyond the BMP as a surrogate pair YAML refuses; here a string is JSON's text, a surrogate
  pair written as YAML's 8-digit escape. A float keeps the point YAML 1.1 needs to read it as one (1e+20 would read
  back as a string); a date or a datetime is its ISO text, which YAML reads back as one.
#}
{% macro _as_yaml(value) %}
  {% if value is none %}{{ return('null') }}
  {% elif value is boolean %}{{ return('true' if value else 'false') }}
  {% elif value is string %}
    {# JSON's escapes are YAML's; a surrogate pair (JSON's way past the BMP) becomes YAML's \UXXXXXXXX #}
    {% set text = [tojson(value)] %}
    {% for high, low in modules.re.findall('\\\\u(d[89ab][0-9a-f]{2})\\\\u(d[c-f][0-9a-f]{2})', text[0]) | unique %}
      {% set code = 65536 + ((high | int(base=16)) - 55296) * 1024 + (low | int(base=16)) - 56320 %}
      {% do text.append(text[-1].replace('\\u' ~ high ~ '\\u' ~ low, '\\U' ~ '%08x' | format(code))) %}
    {% endfor %}
    {{ return(text[-1]) }}
  {% elif value is integer %}{{ return(value | string) }}
  {% elif value is float %}
    {% set text = value | string %}
    {{ return({'inf': '.inf', '-inf': '-.inf', 'nan': '.nan'}.get(text)
              or (text.replace('e', '.0e') if 'e' in text and '.' not in text else text)) }}
  {% elif value is mapping %}
    {% set items = [] %}
    {% for key, item in value.items() %}{% do items.append(dbt_backfill._as_yaml(key) ~ ': ' ~ dbt_backfill._as_yaml(item)) %}{% endfor %}
    {{ return('{' ~ items | join(', ') ~ '}') }}
  {% elif value is iterable %}
    {% set items = [] %}
    {% for item in value %}{% do items.append(dbt_backfill._as_yaml(item)) %}{% endfor %}
    {{ return('[' ~ items | join(', ') ~ ']') }}
  {% elif value.isoformat is defined %}{{ return(value.isoformat()) }}
  {% else %}{{ return(dbt_backfill._as_yaml(value | string)) }}
  {% endif %}
{% endmacro %}
