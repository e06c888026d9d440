{#
  The packet: the one shape both paths write, built here once from the reviewed plan. The CLI writes it as its
  YAML file; plan_backfill records it as JSON in its `packet_recorded` row. Python's `Packet`
  (python_plugin/dbt_backfill/packet.py) is a typed view of this shape: it reads, writes and binds it and builds
  none of it, and tests/test_plan_review.py holds the two equal, field by field, on both paths
  Adding a field means one line here and one field in `Packet`.
  `bound`: what only the caller knows: created_at (else now, UTC), dbt_target and dbt_vars (the CLI's --target and
  --vars; the vars only where given), cascade_of (a cascade's root) and downstream_bindings (what each downstream
  model runs, compiled by the CLI with the root).
  `given`: the contract as the caller gave it: partition_by as meta.backfill spells it, the watermark's settings,
  and the materialization (for the allowance of a `table` model).
#}
{% macro _packet_document(plan, given, bound={}) %}
  {% set watermark = none %}
  {% if plan.watermark %}
    {% set watermark = {'config': given.watermark or {}} %}
    {% do watermark.update(plan.watermark) %}
  {% endif %}
  {% set downstream = [] %}
  {% for entry in plan.downstream %}
    {% set bound_entry = entry.copy() %}
    {% do bound_entry.update({'binding': (bound.get('downstream_bindings') or {}).get(entry.unique_id) or {}}) %}
    {% do downstream.append(bound_entry) %}
  {% endfor %}
  {% set document = {
      'version': 1,
      'run_id': plan.run_id,
      'created_at': bound.get('created_at') or modules.datetime.datetime.utcnow().isoformat(timespec='seconds') ~ '+00:00',
      'model': plan.model,
      'target': [plan.target.database, plan.target.schema, plan.target.identifier] | select | join('.'),
      'target_relation': plan.target,
      'adapter': plan.adapter,
      'dbt_target': bound.get('dbt_target'),
      'partition_by': given.partition_by,
      'business_key': plan.business_key | list,
      'order_by': plan.order_by | list,
      'additive': plan.additive | list,
      'exclude_columns': plan.exclude_columns | list,
      'material_columns': plan.material_columns,
      'code': plan.code,
      'source': plan.source,
      'partitions': dbt_backfill._partition_documents(plan.partitions),
      'watermark': watermark,
      'allowances': dbt_backfill._allowances_recorded(plan, given.materialized),
      'review': plan.review,
      'cost': plan.cost,
      'gates': plan.gates,
      'control': plan.control,
      'downstream': downstream,
      'batch_size': plan.batch_size | int,
      'cascade_of': bound.get('cascade_of') or none,
      'expires_at': plan.expires_at | string if plan.expires_at else none,
      'approval': none,
  } %}
  {% if bound.get('dbt_vars') %}{% do document.update({'dbt_vars': bound.dbt_vars}) %}{% endif %}
  {% if plan.get('column_notes') is not none %}{% do document.update({'column_notes': plan.column_notes}) %}{% endif %}
  {{ return(document) }}
{% endmacro %}

{# What the planner allowed, with the reason, only where the plan needed it: a `table` model, the partitions a build
   empties, a watermark the builds raise. #}
{% macro _allowances_recorded(plan, materialized) %}
  {% set given, recorded = plan.allowances, {} %}
  {% if given.get('table_model') and materialized == 'table' %}
    {% do recorded.update({'table_model': {'reason': given.table_model}}) %}
  {% endif %}
  {% if plan.emptied %}
    {% do recorded.update({'empty_partitions': {'partitions': plan.emptied, 'reason': given.get('empty_partitions')}}) %}
  {% endif %}
  {% if plan.watermark and plan.watermark.raised %}
    {% do recorded.update({'watermark_move': {'reason': given.get('watermark_move')}}) %}
  {% endif %}
  {{ return(recorded) }}
{% endmacro %}

{# Each partition as the packet records it: its builds' fingerprints (the approved one is build a), commitments,
   change summary and relations, nothing the plan kept only for its own steps. #}
{% macro _partition_documents(partitions) %}
  {% set documents = [] %}
  {% for p in partitions %}
    {% set builds = {'a': dbt_backfill._fingerprint_document(p.builds.a), 'b': dbt_backfill._fingerprint_document(p.builds.b)} %}
    {% do documents.append({
        'value': p.value | string,
        'stage': [p.stage.database, p.stage.schema, p.stage.identifier] | select | join('.'),
        'builds': builds,
        'fingerprint': builds.a,
        'commitment': p.commitment | string,
        'target_before': dbt_backfill._fingerprint_document(p.target_before),
        'target_before_commitment': p.target_before_commitment | string,
        'changes': dbt_backfill._changes_document(p.changes),
        'stage_relation': p.stage,
        'stage_b_relation': p.stage_b,
        'backup_relation': p.backup,
    }) %}
  {% endfor %}
  {{ return(documents) }}
{% endmacro %}

{# A fingerprint as the packet records it: its six fields, the totals as exact text. #}
{% macro _fingerprint_document(fingerprint) %}
  {% set totals = {} %}
  {% for name, total in (fingerprint.totals or {}).items() %}{% do totals.update({name | string: total | string}) %}{% endfor %}
  {{ return({'row_count': fingerprint.row_count | int, 'null_keys': fingerprint.null_keys | int,
             'duplicate_keys': none if fingerprint.duplicate_keys is none else fingerprint.duplicate_keys | int,
             'totals': totals, 'sha256': fingerprint.sha256 | string, 'algorithm': fingerprint.algorithm | string}) }}
{% endmacro %}

{# A partition's change summary as the packet records it. `excluded`, `columns` and `compared` appear where the plan
   counted them; `buckets` only in packets written before the summary compared rows exactly (DECISIONS row 84). #}
{% macro _changes_document(changes) %}
  {% set document = {'added': changes.added | int, 'removed': changes.removed | int, 'changed': changes.changed | int,
                     'sample': changes.sample or [], 'added_keys': changes.added_keys or [],
                     'removed_keys': changes.removed_keys or []} %}
  {% for name in ['excluded', 'columns', 'compared'] if changes.get(name) is not none %}
    {% do document.update({name: changes[name]}) %}
  {% endfor %}
  {% if changes.get('buckets') %}{% do document.update({'buckets': changes.buckets}) %}{% endif %}
  {{ return(document) }}
{% endmacro %}
