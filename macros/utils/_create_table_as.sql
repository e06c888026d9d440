{# Drop + create table as, inside the caller's transaction; dbt's own create_table_as renders the engine's DDL. #}
{% macro _create_table_as(relation, sql) %}
  {% do dbt_backfill._forget_columns(relation) %}
  {% do dbt_backfill._execute("drop table if exists " ~ relation, fetch=false) %}
  {% do dbt_backfill._execute(get_create_table_as_sql(False, relation, sql), fetch=false) %}
{% endmacro %}
