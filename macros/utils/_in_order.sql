{# Partition values in their order (_ordering_key), each once. #}
{% macro _in_order(values, family) %}
  {% set order = {} %}
  {% for value in values %}{% do order.update({value: dbt_backfill._ordering_key(value, family)}) %}{% endfor %}
  {{ return(dbt_backfill._by_ordinal(order)) }}
{% endmacro %}
