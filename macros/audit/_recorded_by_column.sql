{# The column naming each row's writer, as a query of the audit table selects it: null where the engine has no roles. #}
{% macro _recorded_by_column() %}
  {{ return(adapter.dispatch('_recorded_by_column', 'dbt_backfill')()) }}
{% endmacro %}

{% macro default___recorded_by_column() %}
  {{ return('cast(null as ' ~ dbt.type_string() ~ ')') }}
{% endmacro %}

{% macro postgres___recorded_by_column() %}
  {{ return('recorded_by') }}
{% endmacro %}
