{# Per partition to build, in order: {value, relations: the stages, backup and whole build _stage_relations names for
   it, target_before: the target's partition fingerprinted as it is now (every partition in one read). #}
{% macro _partition_plans(target_relation, stage_schema, run_id, scope, partitions) %}
  {% set partition_plans = [] %}
  {% set target_before = dbt_backfill._fingerprints_in_scope(target_relation, scope, partitions) %}
  {% for value in partitions %}
    {% do partition_plans.append({
        'value': value,
        'relations': dbt_backfill._stage_relations(target_relation, stage_schema, run_id, loop.index0),
        'target_before': target_before[value | string],
    }) %}
  {% endfor %}
  {{ return(partition_plans) }}
{% endmacro %}
