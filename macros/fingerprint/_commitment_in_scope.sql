{# The commitment (commitment_digest) of `relation`, or of one partition of it, over every column the relation has
   — the excluded ones too: they are left out of the fingerprint because two builds may differ in them, but the
   stage that was approved is one build, and what apply inserts must be that build, every column of it. The stage
   and the copy apply inserts from both hold exactly the target's columns (the plan checks the stage's). #}
{% macro _commitment_in_scope(relation, scope, row_count, partition_value=none, with_partition=false) %}
  {% set names = dbt_backfill._column_names(relation) %}
  {% set own_partition_column = dbt_backfill._columns(relation, [scope.partition_column.name], 'partition_by')[0] %}
  {{ return(dbt_backfill.commitment_digest(relation, dbt_backfill._columns(relation, names, 'material column'),
      dbt_backfill._partition_predicate(own_partition_column, partition_value) if with_partition else none, row_count)) }}
{% endmacro %}
