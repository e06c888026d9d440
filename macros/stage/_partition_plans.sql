{# Per partition to build, in order: {value, relations: the stages, backup and whole build _stage_relations names for
   it, target_before: the target's partition fingerprinted as it is now}. #}
{% macro _partition_plans(target_relation, stage_schema, run_id, scope, partitions) %}
  {% set partition_plans = [] %}
  {% for value in partitions %}
    {% do partition_plans.append({
        'value': value,
        'relations': dbt_backfill._stage_relations(target_relation, stage_schema, run_id, loop.index0),
        'target_before': dbt_backfill._fingerprint_in_scope(target_relation, scope, value, true),
    }) %}
  {% endfor %}
  {{ return(partition_plans) }}
{% endmacro %}
