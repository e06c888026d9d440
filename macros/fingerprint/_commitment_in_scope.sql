{# The commitment (commitment_digest) of `relation`, or of one partition of it, over every column the relation has
   — the excluded ones too: they are left out of the fingerprint because two builds may differ in them, but the
   stage that was approved is one build, and what apply inserts must be that build, every column of it. The stage
   and the copy apply inserts from both hold exactly the target's columns (the plan checks the stage's). #}
{% macro _commitment_in_scope(relation, scope, row_count, partition_value=none, with_partition=false) %}
  {% set sql = dbt_backfill._commitment_in_scope_sql(relation, scope, row_count, partition_value, with_partition) %}
  {{ return(dbt_backfill._execute(sql).rows[0][0] | string) }}
{% endmacro %}
