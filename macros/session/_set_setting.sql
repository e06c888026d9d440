{% macro _set_setting(name, value) %}
  {{ return(adapter.dispatch('_set_setting', 'dbt_backfill')(name, value)) }}
{% endmacro %}

{# set_config takes its value as a literal, so a remembered value is quoted like any other. #}
{% macro postgres___set_setting(name, value) %}
  {% do dbt_backfill._execute('select pg_catalog.set_config(' ~ dbt_backfill._sql_literal(name) ~ ', ' ~ dbt_backfill._sql_literal(value) ~ ', false)', fetch=false) %}
{% endmacro %}

{% macro default___set_setting(name, value) %}
  {% do dbt_backfill._execute('set ' ~ name ~ ' = ' ~ dbt_backfill._sql_literal(value), fetch=false) %}
{% endmacro %}

{# Spark's SET takes the rest of the statement as the value, unquoted. #}
{% macro spark___set_setting(name, value) %}
  {% do dbt_backfill._execute('set ' ~ name ~ ' = ' ~ value, fetch=false) %}
{% endmacro %}
