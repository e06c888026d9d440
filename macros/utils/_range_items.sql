{# The items of _as_ranges: each value, or `first..last` for a run of consecutive days or integers. Values of any
   other family are written quoted when they hold a comma or `..` (plan takes "a quoted value" as itself). #}
{% macro _range_items(values, family) %}
  {% if family not in ('date', 'integer') or 'NULL' in values %}
    {% set items = [] %}
    {% for value in values %}
      {% do items.append('"' ~ value ~ '"' if (',' in value or '..' in value) and value != 'NULL' else value) %}
    {% endfor %}
    {{ return(items) }}
  {% endif %}
  {% set runs = [] %}
  {% for value in values %}
    {% set ordinal = dbt_backfill._partition_ordinal(value, family) %}
    {% if runs and runs[-1][2] + 1 == ordinal %}
      {% set last = runs.pop() %}
      {% do runs.append([last[0], value, ordinal]) %}
    {% else %}
      {% do runs.append([value, value, ordinal]) %}
    {% endif %}
  {% endfor %}
  {% set items = [] %}
  {% for run in runs %}{% do items.append(run[0] if run[0] == run[1] else run[0] ~ '..' ~ run[1]) %}{% endfor %}
  {{ return(items) }}
{% endmacro %}
