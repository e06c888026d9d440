{# Drop `relation` if it exists and create it from `sql`, in one committed transaction (engines whose DDL is
   transactional). #}
{% macro _create_table_in_one_transaction(relation, sql) %}
  {% do dbt_backfill.begin_transaction() %}
  {% do dbt_backfill._create_table_as(relation, sql) %}
  {% do dbt_backfill._commit() %}
{% endmacro %}
