{% macro _current_setting(name) %}
  {{ return(adapter.dispatch('_current_setting', 'dbt_backfill')(name)) }}
{% endmacro %}

{% macro default___current_setting(name) %}
  {{ return(dbt_backfill._execute('select current_setting(' ~ dbt_backfill._sql_literal(name) ~ ')').rows[0][0]) }}
{% endmacro %}

{% macro postgres___current_setting(name) %}
  {{ return(dbt_backfill._execute('select pg_catalog.current_setting(' ~ dbt_backfill._sql_literal(name) ~ ')').rows[0][0]) }}
{% endmacro %}

{% macro spark___current_setting(name) %}
  {{ return(dbt_backfill._execute('set ' ~ name).rows[0][1]) }}
{% endmacro %}
