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

{# DuckDB: timestamptz renders through an explicit UTC conversion; the time zone is pinned anyway so that nothing
   else read in the session depends on the caller's. #}
{% macro duckdb__pin_session() %}
  {% do dbt_backfill._execute("set TimeZone = 'UTC'", fetch=false) %}
  {% do dbt_backfill._commit() %}
{% endmacro %}

{# Spark: the session time zone decides how a TIMESTAMP (an instant) prints. #}
{% macro spark__pin_session() %}
  {% do dbt_backfill._execute("set spark.sql.session.timeZone = UTC", fetch=false) %}
{% endmacro %}
