{# Partition values as plan takes them, consecutive runs of days or integers as inclusive ranges (a..b). #}
{% macro _as_ranges(values, family) %}
  {{ return(dbt_backfill._range_items(values, family) | join(',')) }}
{% endmacro %}
