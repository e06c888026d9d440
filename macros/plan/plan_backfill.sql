{#
  The pure-dbt plan (dbt Cloud, or anywhere only dbt commands run): the same pinning, double build,
  fingerprints, change summary, gates, review and written plan as `dbt-backfill plan`, without the Python
  plugin. The model's contract comes from its meta.backfill; its SQL is rendered as a full build
  (_render_model_sql). The packet is recorded in the audit table (event packet_recorded, with its SHA-256,
  computed by the database over the recorded text) and printed with the written plan. Nothing in the target
  changes; apply_backfill applies the packet when given its SHA-256.

  dbt run-operation dbt_backfill.plan_backfill --args '{model: fct_trips, partitions: [2026-03-01, 2026-03-02]}'
  a range, inclusive, of ISO dates or integers: partitions: 2026-03-01..2026-03-31 (each value checked by the
  partition column's own cast, as any value)
  optional: allow_empty: <reason>, allow_watermark_move: <reason>, allow_table: <reason> (a `table` model), batch_size: N,
  prove_window: full (prove the input windows over the whole history in this plan, whatever proof is recorded)
#}
{% macro plan_backfill(model, partitions, allow_empty=none, allow_watermark_move=none, allow_table=none, batch_size=5,
                       prove_window=none) %}
  {% if not execute %}{{ return('') }}{% endif %}
  {% set node = dbt_backfill._model_node(model) %}
  {% set allowances = {} %}
  {% if allow_empty %}{% do allowances.update({'empty_partitions': allow_empty}) %}{% endif %}
  {% if allow_watermark_move %}{% do allowances.update({'watermark_move': allow_watermark_move}) %}{% endif %}
  {% if allow_table %}{% do allowances.update({'table_model': allow_table}) %}{% endif %}
  {# meta.backfill, the materialization, the partition values and the run's id, read as the CLI's resolve_plan reads them #}
  {% set resolved = dbt_backfill._resolve_plan(node, partitions, {}, allowances) %}
  {% set spec, partitions, run_id = resolved.spec, resolved.partitions, resolved.run_id %}
  {% set model_sql = dbt_backfill._render_model_sql(node) %}
  {% set target_ref = {'database': node.database, 'schema': node.schema, 'identifier': node.alias or node.name} %}
  {% set code = {'compiled_sql_sha256': dbt_backfill._sha256_of_text(model_sql), 'git_commit': none,
                 'dbt_backfill_version': dbt_backfill._version(), 'dbt_version': dbt_version} %}
  {% set commands = dbt_backfill._pure_dbt_commands(run_id, model) %}

  {% set plan = dbt_backfill._plan(run_id, node.name, target_ref, model_sql, spec.partition_by, spec.business_key,
      partitions, none, spec.order_by, spec.additive, spec.exclude_columns, spec.stage_schema, spec.watermark,
      spec.checks, spec.cost_warning, allowances, code, batch_size, commands,
      approval_ttl=spec.approval_ttl, input_window=spec.input_window, from_ranges=resolved.from_ranges,
      window_proof_max_age=spec.window_proof_max_age, prove_window=prove_window) %}
  {% set markdown = plan.pop('markdown') %}
  {% do dbt_backfill._refuse_planned(plan, dbt_backfill._plan_refusal(plan, allowances), target_ref, run_id, node.name) %}
  {% if plan.nothing_to_change %}
    {% do dbt_backfill._drop_unchanged_plan(plan, target_ref, run_id, node.name) %}
    {{ return('') }}
  {% endif %}
  {% do dbt_backfill._record_plan_packet(plan, markdown, target_ref, run_id, node.name) %}
{% endmacro %}

{# The next steps, as the written plan names them on the pure-dbt path: dbt run-operation commands. #}
{% macro _pure_dbt_commands(run_id, model) %}
  {% set apply_command = "`dbt run-operation dbt_backfill.apply_backfill --args '{run_id: " ~ run_id
      ~ ", approved_sha256: <the packet sha256>, approved_by: <the approver>}'`" %}
  {{ return({
      'approve': 'the approver\'s reply naming the packet sha256 printed with this plan (their approval is recorded by apply_backfill\'s approved_by)',
      'apply': apply_command,
      'verify': "`dbt run-operation dbt_backfill.verify_backfill --args '{run_id: " ~ run_id ~ "}'`",
      'rollback': "`dbt run-operation dbt_backfill.rollback_backfill --args '{run_id: " ~ run_id ~ "}'`",
      'history': "`dbt run-operation dbt_backfill.backfill_history --args '{model: " ~ model ~ "}'`"}) }}
{% endmacro %}

{# A plan the package refuses once its stages are built (_plan_refusal), refused here as the CLI refuses it: its
   stages dropped (or kept, two builds to compare, with the command that drops them), `plan_failed` recorded. #}
{% macro _refuse_planned(plan, refusal, target_ref, run_id, model) %}
  {% if refusal is none %}{{ return(none) }}{% endif %}
  {% if refusal.keep_stages %}
    {% set kept = [] %}
    {% for p in plan.partitions %}{% for ref in [p.stage, p.stage_b] %}{% do kept.append(dbt_backfill._relation_name(dbt_backfill._relation(ref))) %}{% endfor %}{% endfor %}
    {# short however many partitions: one partition's pair, else the first pair and the count (as the CLI says) #}
    {% set said = (' Its stages are kept so the two builds can be compared: ' ~ kept | join(', ') if kept | length <= 2
        else ' Its ' ~ kept | length ~ ' stages are kept so the two builds can be compared: ' ~ kept[0] ~ ', ' ~ kept[1]
             ~ ' and ' ~ (kept | length - 2) ~ ' more named alike (__p<n>_a and __p<n>_b for the plan\'s partition n, from 0)')
        ~ '; drop them with `dbt run-operation dbt_backfill.clean_backfill --args \'{run_id: ' ~ run_id ~ '}\'`.' %}
  {% else %}
    {% set dropped = dbt_backfill._drop_planned_stages(plan, target_ref, run_id, model, 'plan refused') %}
    {% set said = ' Its stages were dropped (' ~ dropped | length ~ ' relation(s)).' if dropped else ' It built no stages.' %}
  {% endif %}
  {% do dbt_backfill.record_audit_event(dbt_backfill._target_relation(target_ref), 'plan_failed', run_id,
      {'model': model, 'outcome': refusal.reason or 'error', 'detail': refusal.message}) %}
  {% do dbt_backfill._commit() %}
  {% if refusal.reason %}
    {% do dbt_backfill._refuse(refusal.reason, refusal.message ~ said, refusal.details) %}
  {% endif %}
  {% do dbt_backfill._fail(refusal.message ~ said) %}
{% endmacro %}

{# Nothing to approve: every partition already holds exactly the rows its build gives. No packet, and the stages this
   plan built go; one `nothing_to_change` row. #}
{% macro _drop_unchanged_plan(plan, target_ref, run_id, model) %}
  {% set dropped = dbt_backfill._drop_planned_stages(plan, target_ref, run_id, model, 'nothing to change') %}
  {% set read = [] %}
  {% for p in plan.partitions %}{% do read.append(p.value ~ ' (' ~ p.target_before.row_count ~ ' rows, sha256 ' ~ p.target_before.sha256[:12] ~ '…)') %}{% endfor %}
  {% do dbt_backfill.record_audit_event(dbt_backfill._target_relation(target_ref), 'nothing_to_change', run_id,
      {'model': model, 'outcome': 'no packet', 'detail': read | join(', ')}) %}
  {% do dbt_backfill._commit() %}
  {% do log('Nothing to change: every partition of ' ~ model ~ ' already holds exactly the rows its build gives '
      ~ '(fingerprint and commitment): ' ~ read | join(', ') ~ '. No packet was recorded and the target is unchanged; '
      ~ 'its ' ~ dropped | length ~ ' stage(s) were dropped.', info=true) %}
  {% do dbt_backfill._emit_result('plan_backfill', {'run_id': run_id, 'packet_sha256': none, 'verdict': 'NOTHING TO CHANGE',
      'audit': plan.audit_relation, 'target': dbt_backfill._relation_name(dbt_backfill._target_relation(target_ref))}) %}
{% endmacro %}

{# Record the packet in the audit table (`packet_recorded`, with its SHA-256, computed by the database over the
   recorded text), print the written plan and say what comes next; a plan reviewed BLOCK then fails the operation,
   as `dbt-backfill plan` exits 3: nothing can apply its packet. #}
{% macro _record_plan_packet(plan, markdown, target_ref, run_id, model) %}
  {# the packet, as the CLI writes it (packet/_packet_document): one shape for both paths #}
  {% set packet_text = tojson(plan.packet, sort_keys=true) %}
  {% set target_relation = dbt_backfill._target_relation(target_ref) %}
  {% set packet_sha256 = dbt_backfill._sha256_of_text(packet_text) %}
  {% do dbt_backfill.record_audit_event(target_relation, 'packet_recorded', run_id, {'model': model,
      'packet_sha256': packet_sha256, 'outcome': plan.review.verdict, 'detail': packet_text}) %}
  {% do dbt_backfill._commit() %}

  {% do log(markdown, info=true) %}
  {% set for_review = dbt_backfill._review_refusal(plan) %}
  {% if for_review %}
    {% do log('Packet recorded for review only: apply_backfill refuses it. Run ' ~ run_id ~ ', sha256 ' ~ packet_sha256 ~ '.', info=true) %}
  {% else %}
    {% do log('Packet recorded in ' ~ plan.audit_relation ~ ': run ' ~ run_id ~ ', sha256 ' ~ packet_sha256 ~ '. Nothing in the target '
        ~ 'has changed. Once approved: dbt run-operation dbt_backfill.apply_backfill --args \'{run_id: ' ~ run_id ~ ', approved_sha256: '
        ~ packet_sha256 ~ ', approved_by: <name>}\'' ~ dbt_backfill._invocation_flags(), info=true) %}
  {% endif %}
  {% do dbt_backfill._emit_result('plan_backfill', {'run_id': run_id, 'packet_sha256': packet_sha256,
      'verdict': plan.review.verdict, 'audit': plan.audit_relation, 'target': dbt_backfill._relation_name(target_relation)}) %}
  {% if for_review %}
    {# a dbt Cloud job that plans must fail here, as `dbt-backfill plan` exits 3: nothing can apply this packet #}
    {% set details = {'run_id': run_id, 'packet_sha256': packet_sha256} %}
    {% do details.update(for_review.details) %}
    {% do dbt_backfill._refuse(for_review.reason, for_review.message ~ ' The packet is recorded for review only (run '
        ~ run_id ~ ', sha256 ' ~ packet_sha256 ~ '); apply_backfill refuses it. Fix the cause and plan again. The target '
        ~ 'is unchanged.', details) %}
  {% endif %}
{% endmacro %}

{# The stages a pure-dbt plan built, dropped when it records no packet: by their names from this plan (dbt's
   relation cache of this invocation never saw them created), as tables, never with CASCADE; one `cleaned` row. #}
{% macro _drop_planned_stages(plan, target_ref, run_id, model, why) %}
  {% set dropped = [] %}
  {% for p in plan.partitions %}
    {# every plan that reaches here built both stages of each partition (a vacant value stops it before any build) #}
    {% for ref in [p.stage, p.stage_b] %}
      {% do dbt_backfill._execute('drop table if exists ' ~ dbt_backfill._relation(ref), fetch=false) %}
      {% do dropped.append(dbt_backfill._relation_name(dbt_backfill._relation(ref))) %}
    {% endfor %}
  {% endfor %}
  {% do dbt_backfill.record_audit_event(dbt_backfill._target_relation(target_ref), 'cleaned', run_id, {'model': model,
      'outcome': 'dropped ' ~ dropped | length ~ ' relations (' ~ why ~ ')', 'detail': {'dropped': dropped, 'by': 'plan_backfill'}}) %}
  {{ return(dropped) }}
{% endmacro %}
