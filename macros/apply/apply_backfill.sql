{#
  The pure-dbt apply: applies the packet plan_backfill recorded for `run_id`, only when `approved_sha256` is the
  SHA-256 of the recorded packet as it stands (recomputed by the database), and only when its review did not
  block it. The approval (approved_by, default the profile's user) is recorded with the run; the replacement is
  apply_partitions': canary, batches, control, one transaction per partition.

  dbt run-operation dbt_backfill.apply_backfill --args '{run_id: ..., approved_sha256: ..., approved_by: ...}'
  optional: batch_size: N, allow_source_drift: <reason> (apply although the source moved since the plan; recorded)
#}
{% macro apply_backfill(run_id, approved_sha256, approved_by=none, batch_size=none, allow_source_drift=none) %}
  {% if not execute %}{{ return('') }}{% endif %}
  {% set recorded = dbt_backfill._recorded_packet(run_id) %}
  {% if recorded.sha256 != (approved_sha256 | string | trim | lower) %}
    {% do dbt_backfill._refuse('approval_mismatch',
        'the approval names packet sha256 ' ~ (approved_sha256 | string)[:12] ~ '…, but the packet recorded for run ' ~ run_id
        ~ ' is ' ~ recorded.sha256[:12] ~ '…: approve the packet as recorded (it was changed, or the approval is for another run). '
        ~ 'The target is unchanged.', {'run_id': run_id}) %}
  {% endif %}
  {% set packet = recorded.packet %}
  {# written for review only: refused in the words the plan's review recorded, as the CLI refuses it #}
  {% set blocked = dbt_backfill._blocked_packet_refusal(packet, recorded.outcome) %}
  {% if blocked %}
    {% do dbt_backfill._refuse(blocked.reason, blocked.message, {'run_id': run_id}) %}
  {% endif %}
  {% set applied = dbt_backfill.apply_partitions(packet.run_id, packet.model, packet.target_relation, packet.partition_by, packet.business_key,
      packet.material_columns, dbt_backfill._packet_partitions(packet), packet.additive, (packet.watermark or {}).get('config'),
      (packet.watermark or {}).get('raised', false) and ('watermark_move' in packet.allowances),
      {'approved_by': approved_by or target.user or 'dbt run-operation',
       'approved_at': modules.datetime.datetime.utcnow().isoformat(timespec='seconds') ~ '+00:00',
       'packet_sha256': recorded.sha256, 'recorded_when_approved': true},
      packet.control, batch_size or packet.batch_size, recorded.sha256, packet.source, allow_source_drift,
      packet.downstream or []) %}
  {# one line for a person, beside the machine results: what the target holds now, as apply_partitions read it #}
  {% do log('Applied run ' ~ run_id ~ ' to ' ~ applied.target ~ ': ' ~ applied.replaced | length ~ ' partition(s) replaced'
      ~ (' (' ~ applied.replaced | join(', ') ~ ')' if applied.replaced else '') ~ ', ' ~ applied.skipped | length
      ~ ' already equal to the approval' ~ (' (' ~ applied.skipped | join(', ') ~ ')' if applied.skipped else '') ~ '.', info=true) %}
  {% set left = applied.downstream_not_rebuilt %}
  {% if left.said %}{% do log(left.said ~ ('\n' ~ left.next_in_dbt if left.next_in_dbt else ''), info=true) %}{% endif %}
{% endmacro %}
