{# Spark: drop `relation` if it exists and create it as a parquet table from `sql`. #}
{% macro _spark_table_as(relation, sql) %}
  {% do dbt_backfill._forget_columns(relation) %}
  {% do dbt_backfill._execute("drop table if exists " ~ relation, fetch=false) %}
  {% do dbt_backfill._execute("create table " ~ relation ~ " using parquet as " ~ sql, fetch=false) %}
{% endmacro %}
