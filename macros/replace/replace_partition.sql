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
  {% set columns = [] %}
  {% for name in column_names %}{% do columns.append(adapter.quote(name)) %}{% endfor %}
  {% do dbt_backfill._execute("delete from " ~ target_relation ~ " where " ~ partition_predicate, fetch=false) %}
  {% do dbt_backfill._execute("insert into " ~ target_relation ~ " (" ~ columns | join(', ') ~ ") select "
                              ~ columns | join(', ') ~ " from " ~ stage_relation, fetch=false) %}
{% endmacro %}
