{#
  The CLI's plan, in one dbt invocation (each costs seconds of start-up): everything _plan does, on the SQL the
  CLI compiled with `dbt compile --full-refresh`. Emits one `plan` result: the packet (packet/_packet_document),
  the written plan and the refusals; the CLI checks them and writes the packet and the plan document.

  dbt run-operation dbt_backfill.plan_stages --args '{run_id: ..., model: ..., target: {database, schema, identifier},
      model_sql: <compiled --full-refresh>, partition_by: ..., business_key: [...], partitions: [...],
      order_by: [...], additive: [...], exclude_columns: [...], stage_schema: ..., watermark: {...} | null,
      checks: [...], cost_warning: {rows, bytes}, allowances: {...}, code: {...}, batch_size: N, commands: {...},
      approval_ttl: <days> | <N>d | <N>h, input_window: {before: N, after: N} | null, from_ranges: [...],
      window_proof_max_age: <days> | null, prove_window: full | null, chosen_by: <text> | null,
      bound: {created_at, dbt_target, dbt_vars, cascade_of, downstream_bindings}}'
  from_ranges: the values that only a range named (left out when neither the target nor the build holds them)
  chosen_by: how the partitions were chosen where the planner did not name them (plan --stale), for the scope
#}
{% macro plan_stages(run_id, target, model_sql, partition_by, business_key, partitions, sources=none, order_by=[],
                     additive=[], exclude_columns=[], stage_schema=none, watermark=none, model=none, checks=[],
                     cost_warning={}, allowances={}, code={}, batch_size=5, commands={}, approval_ttl=none,
                     input_window=none, from_ranges=[], window_proof_max_age=none, prove_window=none, chosen_by=none,
                     bound={}) %}
  {% set plan = dbt_backfill._plan(run_id, model, target, model_sql, partition_by, business_key,
      partitions, sources, order_by, additive, exclude_columns, stage_schema, watermark, checks, cost_warning, allowances,
      code, batch_size, commands, record_planned=false, approval_ttl=approval_ttl, input_window=input_window,
      from_ranges=from_ranges, window_proof_max_age=window_proof_max_age, prove_window=prove_window,
      chosen_by=chosen_by, bound=bound) %}
  {# the CLI refuses with these words as plan_backfill does, then says what became of the stages in its own failure path #}
  {# what the CLI needs: the packet it writes (the package's one shape), the written plan, and the refusals in
     plan_backfill's words; the CLI says what became of the stages in its own failure path #}
  {% do dbt_backfill._emit_result('plan', {'packet': plan.packet, 'markdown': plan.markdown,
      'nothing_to_change': plan.nothing_to_change, 'skipped_in_ranges': plan.skipped_in_ranges,
      'package_version': plan.package_version, 'refusal': dbt_backfill._plan_refusal(plan, allowances),
      'review_refusal': dbt_backfill._review_refusal(plan)}) %}
{% endmacro %}
