{# The statement `_commitment_in_scope` runs (one row, `bf_commitment`), for a caller that reads it with another check
   in one statement (_commitment_and_keys_outside). #}
{% macro _commitment_in_scope_sql(relation, scope, row_count, partition_value=none, with_partition=false) %}
  {% set names = dbt_backfill._column_names(relation) %}
  {% set own_partition_column = dbt_backfill._columns(relation, [scope.partition_column.name], 'partition_by')[0] %}
  {{ return(dbt_backfill._commitment_sql([dbt_backfill._commitment_branch(relation,
      dbt_backfill._columns(relation, names, 'material column'),
      dbt_backfill._partition_predicate(own_partition_column, partition_value) if with_partition else none, row_count)])) }}
{% endmacro %}
