{# An external table with the columns, partitioning and format of `like`, rooted at `location` (replacing a table
   of that name: external, so dropping it deletes no file). #}
{% macro _spark_external_like(relation, like, location) %}
  {% do dbt_backfill._forget_columns(relation) %}
  {% do dbt_backfill._execute('drop table if exists ' ~ relation, fetch=false) %}
  {% do dbt_backfill._execute('create table ' ~ relation ~ ' like ' ~ like ~ ' location ' ~ dbt_backfill._sql_literal(location), fetch=false) %}
{% endmacro %}
