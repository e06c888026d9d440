{#
  The read-only half of a backfill, shared by plan_stages (the CLI, which compiles the model with
  `dbt compile --full-refresh`) and plan_backfill (pure dbt), as a sequence of steps, each in the folder named for
  it: check the target, the partition values and the gates' settings (plan/, compare/); pin the source: two reads,
  refused if they differ, before anything is built (source_pin/); name the stages and fingerprint the target's
  current partitions (stage/), a control partition outside the scope (plan/), read the live job's watermark
  (guards/); estimate the cost from the planner (cost/: the rows written measured once built); decide whether this plan proves the input windows, and
  build every partition twice, all a then all b, one transaction each (stage/); fingerprint both builds and
  summarise the changes, bucket digests first (compare/); check or prove the input windows (stage/); find business
  keys that would land in two partitions and keys a named partition loses to one that is not named, predict the
  watermark and evaluate the reconciliation gates (compare/, guards/); read the source a third time (source_pin/);
  assemble the plan (packet/), list the models downstream, review the six checks and write the plan document
  (review/), then the packet both paths write (packet/_packet_document: `plan.packet`, with what only the caller
  knows, `bound`). The target is only read. Returns the plan as a dict; the caller emits its packet or records it.
#}
{% macro _plan(run_id, model, target, model_sql, partition_by, business_key, partitions, sources, order_by=[], additive=[],
               exclude_columns=[], stage_schema=none, watermark=none, checks=[], cost_warning={}, allowances={},
               code={}, batch_size=5, commands={}, record_planned=true, approval_ttl=none, input_window=none,
               from_ranges=[], window_proof_max_age=none, prove_window=none, chosen_by=none, bound={}) %}
  {% do dbt_backfill.pin_session() %}
  {% set expires_at = dbt_backfill._approval_deadline(approval_ttl) %}
  {% set proof_settings = dbt_backfill._window_proof_settings(window_proof_max_age, prove_window) %}
  {% set node = dbt_backfill._model_node(model) if model else none %}
  {% set target_relation, target_columns, scope = dbt_backfill._plan_target(target, partition_by, business_key, order_by,
                                                                             additive, exclude_columns) %}
  {% set partitions, vacant = dbt_backfill._named_partitions(target_relation, scope, model_sql, partitions, from_ranges) %}
  {% do dbt_backfill._reconciliation_gates(checks, target_relation, scope, []) %}
  {% set sources = sources if sources is not none else dbt_backfill._relations_read(node) %}
  {# what each partition's builds read of the inputs with event_time; the pin reads the same #}
  {% set windowing = dbt_backfill._input_windows(node, scope, partitions, sources, input_window, model_sql) %}
  {% set reads = dbt_backfill._pin_source(sources) %}

  {% set stage_schema = dbt_backfill._stage_schema(stage_schema, target_relation) %}
  {% set partition_plans = dbt_backfill._partition_plans(target_relation, stage_schema, run_id, scope, partitions) %}
  {% set control = dbt_backfill._control_partition(target_relation, scope, partitions) %}
  {% set watermark_before = dbt_backfill.watermark_state(watermark, target_relation) if watermark else none %}
  {% do dbt_backfill._commit() %}
  {% set cost = dbt_backfill._backfill_cost(model_sql, sources, scope, partition_plans, cost_warning) %}
  {% do dbt_backfill._record_building_stages(target_relation, run_id, model, stage_schema, partitions, expires_at) %}
  {# a windowed plan checks its windows through widened ones; it proves them over the whole history when no proof
     recorded for this code can be relied on (_window_proof_due) #}
  {% set windowed = windowing.mode == 'windowed' %}
  {% set binding = dbt_backfill._window_binding(model_sql, windowing, sources, scope.partition_column.name) if windowed else none %}
  {% set proof = dbt_backfill._window_proof_due(target_relation, binding, proof_settings)
      if windowed else {'due': false, 'why': none, 'last': none} %}
  {% do dbt_backfill._commit() %}
  {% set proving = windowed and proof.due %}
  {% set built = dbt_backfill._build_stages(target_relation, target_columns, stage_schema, partition_plans, windowing,
                                            proving, model_sql, scope) %}

  {% set planned, stages = dbt_backfill._compare_builds(target_relation, partition_plans, scope, proving) %}
  {% set cost = dbt_backfill._measured_cost(cost, planned) %}
  {% if windowed %}
    {% do dbt_backfill._prove_input_windows(planned, partition_plans, windowing, built.sql, scope,
        {'target': target_relation, 'run_id': run_id, 'model': model, 'binding': binding, 'proving': proving,
         'read_at': built.read_at}) %}
  {% endif %}
  {% set collisions = dbt_backfill.keys_in_two_partitions(target_relation, stages, scope) %}
  {% set watermark_plan = dbt_backfill._watermark_plan(watermark_before, target_relation, stages, scope) %}
  {% set gates = dbt_backfill._reconciliation_gates(checks, target_relation, scope, planned) %}
  {% do dbt_backfill._commit() %}
  {% set lost = dbt_backfill._keys_lost(target_relation, built.sql, planned, scope, partitions, collisions) %}
  {% set after_read = dbt_backfill._reread_source(sources, reads[0]) %}

  {% set plan = dbt_backfill._plan_packet(run_id, model, node, target_relation, target_columns, scope, sources,
      {'business_key': business_key, 'order_by': order_by, 'additive': additive, 'exclude_columns': exclude_columns,
       'stage_schema': stage_schema, 'code': code, 'expires_at': expires_at, 'allowances': allowances,
       'batch_size': batch_size},
      {'reads': reads, 'after_build': after_read, 'windowing': windowing, 'proof': proof, 'binding': binding},
      {'partitions': planned, 'skipped_in_ranges': vacant, 'key_collisions': collisions, 'keys_moved_out': lost.moved_out,
       'keys_repeated': lost.repeated, 'key_holds_partition': lost.key_holds_partition, 'watermark': watermark_plan,
       'cost': cost, 'gates': gates, 'control': control}) %}
  {% if chosen_by %}{% do plan.update({'chosen_by': chosen_by}) %}{% endif %}
  {% do dbt_backfill._review_plan(plan, node, target_relation, run_id, partitions, commands) %}
  {% do plan.update({'packet': dbt_backfill._packet_document(plan, {'partition_by': partition_by, 'watermark': watermark,
      'materialized': node.config.materialized if node else none}, bound)}) %}
  {% do dbt_backfill._record_planned(plan, target_relation, run_id, model, partitions, record_planned) %}
  {{ return(plan) }}
{% endmacro %}

