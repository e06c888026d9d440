{#
  Fingerprint both builds of every partition (the session pinned again) and summarise each partition's changes
  against the target (_change_summaries: every partition in two statements). Returns [planned: the packet's partitions, each
  {value, stage, stage_b, backup, stage_relation (for _keys_lost; dropped before the packet is written), builds,
  builds_equal, fingerprint, commitment, target_before, target_before_commitment, changes}, stages: {value, relation,
  rows} of every build a (keys_in_two_partitions, _watermark_plan)]. The proof's whole build, when there is one, is
  dropped here: its rows are in the builds b.
#}
{% macro _compare_builds(target_relation, partition_plans, scope, proving) %}
  {% do dbt_backfill.pin_session() %}
  {% do dbt_backfill._step('fingerprinting and comparing the builds', 'fingerprinting or comparing the builds failed (see '
      ~ 'the error below). No packet was written and the target is unchanged.') %}
  {% set planned = [] %}
  {% set stages = [] %}
  {# every build of a kind in one read (_fingerprints_of_relations); b's duplicate keys are not counted: equal
     fingerprints mean equal rows, hence equal keys, and unequal builds are refused whatever their keys (one grouping
     by key per partition fewer: docs/DECISIONS.md) #}
  {% set builds_a = dbt_backfill._fingerprints_of_relations(partition_plans | map(attribute='relations.a') | list, scope,
                                                            count_duplicate_keys=true) %}
  {% set builds_b = dbt_backfill._fingerprints_of_relations(partition_plans | map(attribute='relations.b') | list, scope) %}
  {# and the commitments of every build a, and of every partition of the target, in one read each #}
  {% set commitment_items = [] %}
  {% for plan in partition_plans %}
    {% do commitment_items.append({'relation': plan.relations.a, 'row_count': builds_a[loop.index0].row_count, 'value': none}) %}
  {% endfor %}
  {% for plan in partition_plans %}
    {% do commitment_items.append({'relation': target_relation, 'row_count': plan.target_before.row_count, 'value': plan.value}) %}
  {% endfor %}
  {% set commitments = dbt_backfill._commitments_in_scope(commitment_items, scope) %}
  {# what replacing each partition with its build a changes, every partition in two statements (_change_summaries) #}
  {% set pairs = [] %}
  {% for plan in partition_plans %}
    {% do pairs.append({'target': target_relation, 'stage': plan.relations.a, 'value': plan.value,
                        'target_rows': plan.target_before.row_count}) %}
  {% endfor %}
  {% set changes = dbt_backfill._change_summaries(pairs, scope, 5, none, scope.get('excluded_names', [])) %}
  {% for plan in partition_plans %}
    {% do dbt_backfill._progress('fingerprinting and comparing the builds', plan.value, loop.index0, loop.length) %}
    {% set build_a, build_b = builds_a[loop.index0], builds_b[loop.index0] %}
    {% do stages.append({'value': plan.value, 'relation': plan.relations.a, 'rows': build_a.row_count | int}) %}
    {% do planned.append({
        'value': plan.value,
        'stage': dbt_backfill._relation_ref(plan.relations.a),
        'stage_b': dbt_backfill._relation_ref(plan.relations.b),
        'backup': dbt_backfill._relation_ref(plan.relations.backup),
        'stage_relation': plan.relations.a,
        'builds': {'a': build_a, 'b': build_b},
        'builds_equal': dbt_backfill._same_fingerprint(build_a, build_b),
        'fingerprint': build_a,
        'commitment': commitments[loop.index0],
        'target_before': plan.target_before,
        'target_before_commitment': commitments[loop.length + loop.index0],
        'changes': changes[loop.index0],
    }) %}
  {% endfor %}
  {% if proving %}
    {% do adapter.drop_relation(partition_plans[0].relations.whole) %}
    {% do dbt_backfill._commit() %}
  {% endif %}
  {{ return([planned, stages]) }}
{% endmacro %}
