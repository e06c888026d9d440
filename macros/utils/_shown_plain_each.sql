{# Every value of `values` as _shown_plain shows one, in one call: a plan's written samples show thousands of
   values, and a macro call per value was a tenth of a 100-partition plan's time outside its SQL (issue 57). #}
{% macro _shown_plain_each(values, width=80) %}
  {% set shown = [] %}
  {% for value in values %}
    {% if value is none %}
      {% do shown.append('NULL') %}
    {% else %}
      {% set text = value | string %}
      {% set cut = text[:width] ~ ('…' if text | length > width else '') %}
      {% do shown.append(cut if modules.re.fullmatch('[A-Za-z0-9_ .:+\\-/,@…]*', cut) else tojson(cut)) %}
    {% endif %}
  {% endfor %}
  {{ return(shown) }}
{% endmacro %}
