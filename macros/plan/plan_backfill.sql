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
  {% set spec = (node.config.meta or {}).get('backfill') or (node.meta or {}).get('backfill') %}
  {% if not spec or not spec.get('partition_by') or not spec.get('business_key') %}
    {% do dbt_backfill._fail(model ~ ' declares no meta.backfill with partition_by and business_key: the pure-dbt path '
        ~ 'takes the contract from the model. Nothing was changed.') %}
  {% endif %}
  {# never trimmed: the round trip through the column's type refuses a value it would rewrite (_check_partition_values) #}
  {% set items = dbt_backfill._partition_items(partitions, spec.partition_by,
      api.Relation.create(database=node.database, schema=node.schema, identifier=node.alias or node.name)) %}
  {% set partitions = dbt_backfill._expanded_partitions(items) %}
  {# the values only a range names: left out when no side holds them (_plan) #}
  {% set named_alone = {} %}  {# a map: `reject('in', ...)` over a list would cost the square of the values #}
  {% for item in items if '..' not in item or dbt_backfill._quoted_value(item) is not none %}
    {% do named_alone.update({dbt_backfill._expanded_partitions([item])[0]: true}) %}
  {% endfor %}
  {% set from_ranges = partitions | reject('in', named_alone) | list %}
  {% if not partitions or (partitions | unique | list | length) != (partitions | length) %}
    {% do dbt_backfill._fail('partitions must name each partition value once, got ' ~ tojson(partitions) ~ '. Nothing was changed.') %}
  {% endif %}
  {% set names = {} %}
  {% for field in ['business_key', 'order_by', 'additive', 'exclude_columns'] %}
    {% set value = spec.get(field) or [] %}
    {% do names.update({field: value.split(',') | map('trim') | list if value is string else value}) %}
  {% endfor %}
  {% set watermark = spec.get('watermark') %}
  {% if watermark is string %}{% set watermark = {'column': watermark} %}{% endif %}

  {% set model_sql = dbt_backfill._render_model_sql(node) %}
  {# ends in a letter and three hex digits: YAML 1.1 reads 20261129_181848_1234 as an integer, so an all-digit id
     would break the apply, verify and rollback commands printed with it, typed as they are #}
  {% set run_id = modules.datetime.datetime.utcnow().strftime('%Y%m%d_%H%M%S_') ~ 'p' ~ invocation_id[:3] %}
  {% set target_ref = {'database': node.database, 'schema': node.schema, 'identifier': node.alias or node.name} %}
  {% set code = {'compiled_sql_sha256': dbt_backfill._sha256_of_text(model_sql), 'git_commit': none,
                 'dbt_backfill_version': dbt_backfill._version(), 'dbt_version': dbt_version} %}
  {% set allowances = {} %}
  {% if allow_empty %}{% do allowances.update({'empty_partitions': allow_empty}) %}{% endif %}
  {% if allow_watermark_move %}{% do allowances.update({'watermark_move': allow_watermark_move}) %}{% endif %}
  {% if allow_table %}{% do allowances.update({'table_model': allow_table}) %}{% endif %}
  {% set commands = dbt_backfill._pure_dbt_commands(run_id, model) %}

  {% set plan = dbt_backfill._plan(run_id, node.name, target_ref, model_sql, spec.partition_by, names.business_key,
      partitions, none, names.order_by, names.additive, names.exclude_columns, spec.get('stage_schema'), watermark,
      spec.get('checks') or [], spec.get('cost_warning') or {}, allowances, code, batch_size, commands,
      approval_ttl=spec.get('approval_ttl'), input_window=spec.get('input_window'), from_ranges=from_ranges,
      window_proof_max_age=spec.get('window_proof_max_age'), prove_window=prove_window) %}
  {% set markdown = plan.pop('markdown') %}
  {% do dbt_backfill._refuse_vacant_plan(plan, target_ref, run_id, node.name) %}
  {% if plan.nothing_to_change %}
    {% do dbt_backfill._drop_unchanged_plan(plan, target_ref, run_id, node.name) %}
    {{ return('') }}
  {% endif %}
  {% do dbt_backfill._record_plan_packet(plan, markdown, target_ref, run_id, node.name, watermark) %}
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

{# A partition with no rows in the target and none in the build: nothing to repair there, and most often a value in
   the wrong format. Refused as the CLI refuses it (workflow/plan.py _check_builds), its stages dropped. #}
{% macro _refuse_vacant_plan(plan, target_ref, run_id, model) %}
  {% set vacant = [] %}
  {% for p in plan.partitions if p.builds.a.row_count == 0 and p.target_before.row_count == 0 %}
    {% do vacant.append(p.value) %}
  {% endfor %}
  {% if vacant %}
    {% set dropped = dbt_backfill._drop_planned_stages(plan, target_ref, run_id, model, 'plan refused') %}
    {% do dbt_backfill.record_audit_event(dbt_backfill._target_relation(target_ref), 'plan_failed', run_id,
        {'model': model, 'outcome': 'vacant partitions', 'detail': vacant | join(', ')}) %}
    {% do dbt_backfill._commit() %}
    {% do dbt_backfill._fail('partition(s) ' ~ vacant | join(', ') ~ ' hold no rows in the target and none in the '
        ~ 'model\'s output: there is nothing to repair. Check the values (and their format). No packet was written and '
        ~ 'the target is unchanged. Its stages were dropped (' ~ dropped | length ~ ' relation(s)).') %}
  {% endif %}
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
{% macro _record_plan_packet(plan, markdown, target_ref, run_id, model, watermark) %}
  {% do plan.update({'version': 1, 'created_at': modules.datetime.datetime.utcnow().isoformat(timespec='seconds') ~ '+00:00',
                     'watermark_config': watermark}) %}
  {% set packet_text = tojson(plan, sort_keys=true) %}
  {% set target_relation = dbt_backfill._target_relation(target_ref) %}
  {% set packet_sha256 = dbt_backfill._sha256_of_text(packet_text) %}
  {% do dbt_backfill.record_audit_event(target_relation, 'packet_recorded', run_id, {'model': model,
      'packet_sha256': packet_sha256, 'outcome': plan.review.verdict, 'detail': packet_text}) %}
  {% do dbt_backfill._commit() %}

  {% do log(markdown, info=true) %}
  {% if plan.review.verdict == 'BLOCK' %}
    {% do log('Packet recorded for review only (BLOCK): apply_backfill refuses it. Run ' ~ run_id ~ ', sha256 ' ~ packet_sha256 ~ '.', info=true) %}
  {% else %}
    {% do log('Packet recorded in ' ~ plan.audit_relation ~ ': run ' ~ run_id ~ ', sha256 ' ~ packet_sha256 ~ '. Nothing in the target '
        ~ 'has changed. Once approved: dbt run-operation dbt_backfill.apply_backfill --args \'{run_id: ' ~ run_id ~ ', approved_sha256: '
        ~ packet_sha256 ~ ', approved_by: <name>}\'', info=true) %}
  {% endif %}
  {% do dbt_backfill._emit_result('plan_backfill', {'run_id': run_id, 'packet_sha256': packet_sha256,
      'verdict': plan.review.verdict, 'audit': plan.audit_relation, 'target': dbt_backfill._relation_name(target_relation)}) %}
  {% if plan.review.verdict == 'BLOCK' %}
    {# a dbt Cloud job that plans must fail here, as `dbt-backfill plan` exits 3: nothing can apply this packet #}
    {% do dbt_backfill._refuse('review_blocked', 'the review judged the plan BLOCK (' ~ plan.review.reason ~ '). The packet '
        ~ 'is recorded for review only (run ' ~ run_id ~ ', sha256 ' ~ packet_sha256 ~ '); apply_backfill refuses it. Fix the '
        ~ 'cause and plan again. The target is unchanged.', {'run_id': run_id, 'packet_sha256': packet_sha256}) %}
  {% endif %}
{% endmacro %}

{# The stages a pure-dbt plan built, dropped when it records no packet: by their names from this plan (dbt's
   relation cache of this invocation never saw them created), as tables, never with CASCADE; one `cleaned` row. #}
{% macro _drop_planned_stages(plan, target_ref, run_id, model, why) %}
  {% set dropped = [] %}
  {% for p in plan.partitions %}
    {% for ref in [p.stage, p.stage_b] %}
      {% do dbt_backfill._execute('drop table if exists ' ~ dbt_backfill._relation(ref), fetch=false) %}
      {% do dropped.append(dbt_backfill._relation_name(dbt_backfill._relation(ref))) %}
    {% endfor %}
  {% endfor %}
  {% do dbt_backfill.record_audit_event(dbt_backfill._target_relation(target_ref), 'cleaned', run_id, {'model': model,
      'outcome': 'dropped ' ~ dropped | length ~ ' relations (' ~ why ~ ')', 'detail': {'dropped': dropped, 'by': 'plan_backfill'}}) %}
  {{ return(dropped) }}
{% endmacro %}
