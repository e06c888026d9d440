{#
  Replace one partition of the target with the stage's rows, inside the caller's open transaction. The caller
  fingerprints the result before it commits, so a partition that does not match the approval never becomes
  visible. Columns are listed by name: the stage's column order need not match the target's. `partition`
  ({column, value}) names the partition for engines whose replace names it rather than filters by a predicate.
#}
{% macro replace_partition(target_relation, stage_relation, partition_predicate, column_names, partition=none) %}
  {{ return(adapter.dispatch('replace_partition', 'dbt_backfill')(target_relation, stage_relation, partition_predicate, column_names, partition)) }}
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

{# Spark: a static partition overwrite, INSERT OVERWRITE ... PARTITION (column = value), which replaces the named
   partition in one statement and empties it when the stage is empty — not atomically for readers: on a parquet
   table Spark deletes the partition's files before it writes the new ones. Never the dynamic mode,
   which leaves a partition that became empty untouched. The target must be partitioned by the partition column
   (Spark cannot delete rows from a parquet table); the columns go in the target's order, partition column last
   out. The select carries the partition predicate: a stage row of another partition would otherwise be written
   into this one under its value. #}
{% macro spark__replace_partition(target_relation, stage_relation, partition_predicate, column_names, partition=none) %}
  {% if partition is none %}
    {% do dbt_backfill._fail('replace_partition on Spark needs the partition {column, value}: the overwrite names it. '
        ~ 'The target is unchanged.') %}
  {% endif %}
  {% set partition_columns = dbt_backfill._spark_partition_columns(target_relation) %}
  {% if partition_columns != [partition.column | lower] %}
    {% do dbt_backfill._refuse('target_not_partitioned', dbt_backfill._relation_name(target_relation)
        ~ ((' is partitioned by (' ~ partition_columns | join(', ') ~ '), not by ' ~ partition.column ~ ' alone')
           if partition_columns else ' is not partitioned') ~ ': on Spark a backfill replaces a '
        ~ 'partition with INSERT OVERWRITE ... PARTITION, so the table must be partitioned by the partition column '
        ~ '(partition_by in the model config). The target is unchanged.',
        {'partition_columns': partition_columns, 'partition_by': partition.column}) %}
  {% endif %}
  {% set data_columns = [] %}
  {% for column in adapter.get_columns_in_relation(target_relation) if column.name | lower != partition.column | lower %}
    {% do data_columns.append(adapter.quote(column.name)) %}
  {% endfor %}
  {% do dbt_backfill._execute('insert overwrite table ' ~ target_relation ~ ' partition (' ~ adapter.quote(partition.column)
      ~ ' = ' ~ dbt_backfill._sql_literal(partition.value | string) ~ ') select ' ~ data_columns | join(', ')
      ~ ' from ' ~ stage_relation ~ ' where ' ~ partition_predicate, fetch=false) %}
{% endmacro %}
