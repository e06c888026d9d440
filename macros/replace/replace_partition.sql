{#
  Replace one partition of the target with the stage's rows, inside the caller's open transaction. The caller
  fingerprints the result before it commits, so a partition that does not match the approval never becomes
  visible. Columns are listed by name: the stage's column order need not match the target's. `partition`
  ({column, value}) names the partition for engines whose replace names it rather than filters by a predicate.
#}
{% macro replace_partition(target_relation, stage_relation, partition_predicate, column_names, partition=none) %}
  {{ return((dbt_backfill._format_leaf('replace_partition', (partition or {}).get('format')) or adapter.dispatch('replace_partition', 'dbt_backfill'))(target_relation, stage_relation, partition_predicate, column_names, partition)) }}
{% endmacro %}

{% macro default__replace_partition(target_relation, stage_relation, partition_predicate, column_names, partition=none) %}
  {{ exceptions.raise_compiler_error("dbt_backfill.replace_partition is not implemented for " ~ adapter.type()) }}
{% endmacro %}

{# PostgreSQL: delete + insert in one transaction; under MVCC a reader sees the old partition or the new one,
   never neither and never both. #}
{% macro postgres__replace_partition(target_relation, stage_relation, partition_predicate, column_names, partition=none) %}
  {% do dbt_backfill._delete_insert(target_relation, stage_relation, partition_predicate, column_names) %}
{% endmacro %}

{# DuckDB: delete + insert in one transaction, also MVCC (snapshot isolation) for readers of the same database.
   Only one process can open a DuckDB file for writing: the scheduled job and apply cannot overlap by design. #}
{% macro duckdb__replace_partition(target_relation, stage_relation, partition_predicate, column_names, partition=none) %}
  {% do dbt_backfill._delete_insert(target_relation, stage_relation, partition_predicate, column_names) %}
{% endmacro %}

{#
  Spark: a swap, not an overwrite. `stage_relation` is a table like the target (_rows_to_write's `<stage>_w`, or for a
  rollback the backup) whose partition is a directory already written and checked; the target's partition is
  pointed at that directory by one catalog operation, ALTER TABLE ... PARTITION ... SET LOCATION: in Spark's Hive
  catalog one metastore call (HiveExternalCatalog.alterPartitions -> the metastore's alter_partitions, one
  transaction), which moves no file. A reader lists a partition's files once, when its query is planned
  (CatalogFileIndex.filterPartitions reads the partitions' locations from the catalog, then InMemoryFileIndex lists
  them), so it reads the old directory whole or the new one whole; nothing is deleted, so a query planned before
  the swap reads the old files to its end. The old directory stays as it was: the backup names it
  (backup_partition). A partition the target does not have yet is added empty first (readers see it empty, as it
  was). The target's partitioning was checked once for the whole apply (write_unit_problem).
#}
{% macro spark__replace_partition(target_relation, stage_relation, partition_predicate, column_names, partition=none) %}
  {% if partition is none %}
    {% do dbt_backfill._fail('replace_partition on Spark needs the partition {column, value}: the swap names it. '
        ~ 'The target is unchanged.') %}
  {% endif %}
  {% set location = dbt_backfill._spark_partition_location(stage_relation, partition) %}
  {% if location is none %}
    {% do dbt_backfill._fail(dbt_backfill._relation_name(stage_relation) ~ ' has no partition ' ~ partition.value
        ~ ' to point the target at. The target is unchanged.') %}
  {% endif %}
  {% do dbt_backfill._execute('alter table ' ~ target_relation ~ ' add if not exists ' ~ dbt_backfill._spark_partition_spec(partition), fetch=false) %}
  {% do dbt_backfill._execute('alter table ' ~ target_relation ~ ' ' ~ dbt_backfill._spark_partition_spec(partition)
      ~ ' set location ' ~ dbt_backfill._sql_literal(location), fetch=false) %}
{% endmacro %}
