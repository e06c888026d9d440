{#
  Replace one partition of the target with the stage's rows, inside the caller's open transaction. The caller
  fingerprints the result before it commits, so a partition that does not match the approval never becomes
  visible. Columns are listed by name: the stage's column order need not match the target's.
#}
{% macro replace_partition(target_relation, stage_relation, partition_predicate, column_names) %}
  {{ return(adapter.dispatch('replace_partition', 'dbt_backfill')(target_relation, stage_relation, partition_predicate, column_names)) }}
{% endmacro %}

{% macro default__replace_partition(target_relation, stage_relation, partition_predicate, column_names) %}
  {{ exceptions.raise_compiler_error("dbt_backfill.replace_partition is not implemented for " ~ adapter.type()) }}
{% endmacro %}

{# PostgreSQL: delete + insert in one transaction; under MVCC a reader sees the old partition or the new one,
   never neither and never both. #}
{% macro postgres__replace_partition(target_relation, stage_relation, partition_predicate, column_names) %}
  {% do dbt_backfill._delete_insert(target_relation, stage_relation, partition_predicate, column_names) %}
{% endmacro %}

{# DuckDB: delete + insert in one transaction, also MVCC (snapshot isolation) for readers of the same database.
   Only one process can open a DuckDB file for writing: the scheduled job and apply cannot overlap by design. #}
{% macro duckdb__replace_partition(target_relation, stage_relation, partition_predicate, column_names) %}
  {% do dbt_backfill._delete_insert(target_relation, stage_relation, partition_predicate, column_names) %}
{% endmacro %}
