{#
  Keep the target partition's current rows in a backup relation, inside the caller's open transaction
  (the one that then replaces the partition), so the backup and the replacement commit or vanish together.
#}
{% macro backup_partition(target_relation, backup_relation, partition_predicate, partition=none) %}
  {{ return((dbt_backfill._format_leaf('backup_partition', (partition or {}).get('format')) or adapter.dispatch('backup_partition', 'dbt_backfill'))(target_relation, backup_relation, partition_predicate, partition)) }}
{% endmacro %}

{% macro default__backup_partition(target_relation, backup_relation, partition_predicate, partition=none) %}
  {{ exceptions.raise_compiler_error("dbt_backfill.backup_partition is not implemented for " ~ adapter.type()) }}
{% endmacro %}

{# PostgreSQL and DuckDB: create table as is transactional, so the backup is part of the replacement. #}
{% macro postgres__backup_partition(target_relation, backup_relation, partition_predicate, partition=none) %}
  {% do dbt_backfill._create_table_as(backup_relation, "select * from " ~ target_relation ~ " where " ~ partition_predicate) %}
{% endmacro %}

{% macro duckdb__backup_partition(target_relation, backup_relation, partition_predicate, partition=none) %}
  {% do dbt_backfill._create_table_as(backup_relation, "select * from " ~ target_relation ~ " where " ~ partition_predicate) %}
{% endmacro %}

{# Spark: no copy. The backup is an external table like the target (rooted at `<target location>/_backfill/<backup>`,
   empty) whose one partition is the directory the target's partition reads now: after the swap that directory is
   the old rows, untouched, and a rollback points the target back at it. Made before the swap, so a kill after it
   leaves the old directory named. A partition the target does not have gets an empty directory of its own (the
   rows before: none). External, so dropping the backup deletes no file; clean deletes the directory when no
   rollback needs it and the target does not read it (_spark_release_directory). #}
{% macro spark__backup_partition(target_relation, backup_relation, partition_predicate, partition=none) %}
  {% do dbt_backfill._spark_external_like(backup_relation, target_relation, dbt_backfill._backfill_directory(partition, backup_relation)) %}
  {% set location = dbt_backfill._spark_partition_location(target_relation, partition) %}
  {% do dbt_backfill._execute('alter table ' ~ backup_relation ~ ' add ' ~ dbt_backfill._spark_partition_spec(partition)
      ~ ((' location ' ~ dbt_backfill._sql_literal(location)) if location else ''), fetch=false) %}
{% endmacro %}
