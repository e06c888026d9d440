{# Fingerprint `relation` (all of it, or one partition) with the scope's columns, taking each column's type from
   the relation itself (_scope_columns_of). `count_duplicate_keys` adds the grouping by key that the plan's check of
   a build needs. #}
{% macro _fingerprint_in_scope(relation, scope, partition_value=none, with_partition=false, count_duplicate_keys=false) %}
  {% set own = dbt_backfill._scope_columns_of(relation, scope) %}
  {{ return(dbt_backfill.fingerprint_relation(
      relation, own.material, own.key_columns, own.additive,
      dbt_backfill._partition_predicate(own.partition, partition_value) if with_partition else none,
      count_duplicate_keys)) }}
{% endmacro %}
