{# Drop + create table as, inside the caller's transaction; dbt's own create_table_as renders the engine's DDL. #}
{% macro _create_table_as(relation, sql) %}
  {% do dbt_backfill._forget_columns(relation) %}
  {% do adapter.dispatch('_create_table_as', 'dbt_backfill')(relation, sql) %}
{% endmacro %}

{% macro default___create_table_as(relation, sql) %}
  {% do dbt_backfill._execute("drop table if exists " ~ relation, fetch=false) %}
  {% do dbt_backfill._execute(get_create_table_as_sql(False, relation, sql), fetch=false) %}
{% endmacro %}

{# DuckDB: one statement, CREATE OR REPLACE (what dbt-duckdb's create_table_as renders for an operation, a plain
   CREATE TABLE ... AS, less the drop before it: one statement of a stage or backup fewer, issue 57). #}
{% macro duckdb___create_table_as(relation, sql) %}
  {% do dbt_backfill._execute('create or replace table ' ~ relation ~ ' as (\n' ~ sql ~ '\n)', fetch=false) %}
{% endmacro %}
