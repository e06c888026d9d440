{# Take the table's backfill lock for the rest of this operation, or refuse: another apply or rollback, or the
   scheduled run (through backfill_lock), is writing the table. #}
{% macro acquire_target_lock(target_relation) %}
  {{ return(adapter.dispatch('acquire_target_lock', 'dbt_backfill')(target_relation)) }}
{% endmacro %}

{% macro default__acquire_target_lock(target_relation) %}
  {{ exceptions.raise_compiler_error("dbt_backfill.acquire_target_lock is not implemented for " ~ adapter.type()) }}
{% endmacro %}

{# PostgreSQL: session-level, so it outlives each partition's commit and ends with the operation's connection. #}
{% macro postgres__acquire_target_lock(target_relation) %}
  {% set got = dbt_backfill._execute('select pg_catalog.pg_try_advisory_lock(' ~ dbt_backfill._lock_key(target_relation) ~ ') as bf_got').rows[0]['bf_got'] %}
  {% do dbt_backfill._commit() %}
  {% if not got %}
    {% do dbt_backfill._refuse('locked',
        dbt_backfill._relation_name(target_relation) ~ ' is locked by another apply or rollback, or by its scheduled run '
        ~ '(dbt_backfill.backfill_lock): nothing was done. Try again when it has finished. The target is unchanged.') %}
  {% endif %}
{% endmacro %}

{# DuckDB: this process already holds the database file; no other process can write it. #}
{% macro duckdb__acquire_target_lock(target_relation) %}
{% endmacro %}

{# Spark: no lock a dbt session can take and hold across statements. Nothing is taken; the plan's review says so
   (check 3) and docs/adapters.md's table names it: schedule the apply outside the live job's window. #}
{% macro spark__acquire_target_lock(target_relation) %}
{% endmacro %}
