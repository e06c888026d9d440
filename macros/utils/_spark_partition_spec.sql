{# `PARTITION (col = 'value')` for {column, value}. #}
{% macro _spark_partition_spec(partition) %}
  {{ return('partition (' ~ adapter.quote(partition.column) ~ ' = ' ~ dbt_backfill._sql_literal(partition.value | string) ~ ')') }}
{% endmacro %}
