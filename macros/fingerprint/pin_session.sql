{# Settings that change how values render as text, pinned before anything is fingerprinted. #}
{% macro pin_session() %}
  {{ return(adapter.dispatch('pin_session', 'dbt_backfill')()) }}
{% endmacro %}

{% macro default__pin_session() %}
  {{ exceptions.raise_compiler_error("dbt_backfill.pin_session is not implemented for " ~ adapter.type()) }}
{% endmacro %}

{% macro postgres__pin_session() %}
  {% do dbt_backfill._execute("set timezone = 'UTC'; set datestyle = 'ISO, YMD'; set extra_float_digits = 1;", fetch=false) %}
  {% do dbt_backfill._commit() %}
{% endmacro %}
