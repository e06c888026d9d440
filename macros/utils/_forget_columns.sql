{% macro _forget_columns(relation) %}
  {% do graph.get('dbt_backfill_columns', {}).get(invocation_id, {}).pop(dbt_backfill._columns_key(relation), none) %}
{% endmacro %}
