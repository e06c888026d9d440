{#
  Keep the target partition's current rows in a backup relation, inside the caller's open transaction
  (the one that then replaces the partition), so the backup and the replacement commit or vanish together.
#}
{% macro backup_partition(target_relation, backup_relation, partition_predicate) %}
  {{ return(adapter.dispatch('backup_partition', 'dbt_backfill')(target_relation, backup_relation, partition_predicate)) }}
{% endmacro %}

{% macro default__backup_partition(target_relation, backup_relation, partition_predicate) %}
  {{ exceptions.raise_compiler_error("dbt_backfill.backup_partition is not implemented for " ~ adapter.type()) }}
{% endmacro %}

{# PostgreSQL and DuckDB: create table as is transactional, so the backup is part of the replacement. #}
{% macro postgres__backup_partition(target_relation, backup_relation, partition_predicate) %}
  {% do dbt_backfill._create_table_as(backup_relation, "select * from " ~ target_relation ~ " where " ~ partition_predicate) %}
{% endmacro %}

{% macro duckdb__backup_partition(target_relation, backup_relation, partition_predicate) %}
  {% do dbt_backfill._create_table_as(backup_relation, "select * from " ~ target_relation ~ " where " ~ partition_predicate) %}
{% endmacro %}

{# Spark: a plain table of the partition's rows, written before the overwrite (no transaction ties the two: the
   backup exists before the partition changes, which is what rollback needs). #}
{% macro spark__backup_partition(target_relation, backup_relation, partition_predicate) %}
  {% do dbt_backfill._spark_table_as(backup_relation, "select * from " ~ target_relation ~ " where " ~ partition_predicate) %}
{% endmacro %}
