{# Settings that change how values render as text, pinned before anything is fingerprinted. The values the session
   had before the first pin are remembered, so that _unpin_session can give the model's SQL the session exactly as
   `dbt run` has it (time zone, DateStyle, ... from the profile, the role or the database): a stage built under a
   pinned UTC would place an evening event of a `::date` model on another day than `dbt run` does. #}
{% macro pin_session() %}
  {{ return(adapter.dispatch('pin_session', 'dbt_backfill')()) }}
{% endmacro %}

{% macro default__pin_session() %}
  {{ exceptions.raise_compiler_error("dbt_backfill.pin_session is not implemented for " ~ adapter.type()) }}
{% endmacro %}

{% macro postgres__pin_session() %}
  {# IntervalStyle and lc_monetary decide how an interval and a money value print (both are 'other' types, written
     as PostgreSQL prints them).
     search_path: refuse_unsafe_search_path fixes it to the schemas it resolves to now, pg_catalog first, and checks
     that fixed path. PostgreSQL searches pg_catalog first only when the path does not name it; a role or database
     set to `public, pg_catalog` would let a public.lower(text) or an operator ||(text, text) replace the built-in in
     everything fingerprinted, committed or written. The session's own path is remembered first, as the schemas it
     resolves to now in its own order (_resolved_search_path), so that _unpin_session gives the model's SQL the
     path `dbt run` has and the check read: a "$user" schema someone creates while the plan runs is not on it. #}
  {% set remembered = dbt_backfill._remembered_settings() %}
  {% if 'search_path' not in remembered %}
    {% do remembered.update({'search_path': dbt_backfill._resolved_search_path()}) %}
    {% do dbt_backfill.refuse_unsafe_search_path() %}
  {% endif %}
  {% do dbt_backfill._pin_settings({'TimeZone': 'UTC', 'DateStyle': 'ISO, YMD', 'extra_float_digits': '1',
                                    'IntervalStyle': 'postgres', 'lc_monetary': 'C'}) %}
{% endmacro %}

{# DuckDB: timestamptz renders through an explicit UTC conversion; the time zone is pinned anyway so that nothing
   else read in the session depends on the caller's. #}
{% macro duckdb__pin_session() %}
  {% do dbt_backfill._pin_settings({'TimeZone': 'UTC'}) %}
{% endmacro %}

{# Spark: the session time zone decides how a TIMESTAMP (an instant) prints. #}
{% macro spark__pin_session() %}
  {% do dbt_backfill._pin_settings({'spark.sql.session.timeZone': 'UTC'}) %}
{% endmacro %}

{% macro _pin_settings(settings) %}
  {% set remembered = dbt_backfill._remembered_settings() %}
  {% for name, value in settings.items() %}
    {% if name not in remembered %}
      {% do remembered.update({name: dbt_backfill._current_setting(name)}) %}
    {% endif %}
    {% do dbt_backfill._set_setting(name, value) %}
  {% endfor %}
  {% do dbt_backfill._commit() %}
{% endmacro %}
