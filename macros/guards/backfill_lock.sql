{#
  The lock a backfill and the scheduled run of the same table share, so they never write it at the same time.
  The live model opts in with one pre-hook line:

      models:
        +pre-hook: "{{ dbt_backfill.backfill_lock() }}"

  `apply` and `rollback` take it with try-lock and refuse when it is held (another apply, or the scheduled run);
  the scheduled run waits for it (PostgreSQL counts the wait against lock_timeout, when one is set).
  Returns the hook's SQL.
#}
{% macro backfill_lock() %}
  {{ return(adapter.dispatch('backfill_lock', 'dbt_backfill')()) }}
{% endmacro %}

{% macro default__backfill_lock() %}
  {{ exceptions.raise_compiler_error("dbt_backfill.backfill_lock is not implemented for " ~ adapter.type()) }}
{% endmacro %}

{# PostgreSQL: a session-level advisory lock keyed by the table's name; dbt closes the model's connection when the
   model ends, which releases it whatever happened to the model's transactions. #}
{% macro postgres__backfill_lock() %}
  {% if not execute %}{{ return('') }}{% endif %}
  {{ return('select pg_catalog.pg_advisory_lock(' ~ dbt_backfill._lock_key(this) ~ ') /* dbt_backfill: wait for any backfill of this table */') }}
{% endmacro %}

{# DuckDB: a database file has one writing process at a time; dbt-duckdb holds it for the whole run, so a
   scheduled run and an apply exclude each other already (the second fails to open the file). #}
{% macro duckdb__backfill_lock() %}
  {{ return('') }}
{% endmacro %}

{# Spark: nothing to wait on (see acquire_target_lock). #}
{% macro spark__backfill_lock() %}
  {{ return('') }}
{% endmacro %}
