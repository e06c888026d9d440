{#
  Replace approved partitions, one transaction each (Spark has none: one swap of the partition's directory each,
  swapped back on a mismatch: write_guarantees), stopping at the first mismatch:
    0. take the table's backfill lock (refused if another apply, a rollback or the scheduled run holds it);
    1. check every approved stage is a table that reading runs no one's code (_check_source), then fingerprint
       it; each must equal the packet, or nothing at all is touched;
    2. per partition, in one transaction: fingerprint the target's partition — equal to the approval: already
       replaced by an earlier, interrupted apply, skip it; equal to the plan's target_before: go on; anything
       else: someone changed it since the plan, refuse — then back up its rows, delete them, insert the stage's,
       fingerprint the partition as it now stands, check the live job's watermark, write the audit row, and
       commit only if all hold. A mismatch raises; dbt closes the connection and the database rolls back.
  The live job's watermark (meta.backfill.watermark) is read before the first partition: a column watermark must
  not rise inside any partition's transaction (unless the approved packet allows it), and a state table or query
  must read the same inside it and after every commit (else a scheduled run is writing concurrently: stop).
  Canary and control: the first partition is the canary, checked on its own; the rest go in batches of
  `batch_size`. After the canary and after every batch — a checkpoint — each partition of it is fingerprinted
  again as committed and must equal the approval, and the control partition (outside the scope, fingerprinted
  by the plan) must still equal its plan-time fingerprint; it is also checked before the first replacement.
  A failed checkpoint stops the run; what was committed stays (rollback restores it).
  Emits `partition_replaced` / `partition_skipped` after each partition, `checkpoint` after each batch and
  `applied` at the end, with the downstream tables that read a changed partition (`downstream`: the packet's list;
  _downstream_not_rebuilt), which an apply without a cascade leaves as they were. Before anything, the approval must still hold (_refuse_stale_approval): before the packet's
  deadline (as the plan recorded it), and the source as the plan pinned it. The approval itself is checked by the caller
  (the CLI, or apply_backfill) before it calls this; `packet_sha256` must be a packet a plan wrote for the run, and
  the partitions' fingerprints the ones it planned (_check_packet).
#}
{% macro apply_partitions(run_id, model, target, partition_by, business_key, material_columns, partitions, additive=[],
                          watermark=none, allow_watermark_move=false, approval={}, control=none, batch_size=5,
                          packet_sha256=none, source=none, allow_source_drift=none, downstream=[]) %}
  {% do dbt_backfill._refuse_unproven_approval(model, run_id, approval, dbt_backfill._relation(target)) %}
  {% set session = dbt_backfill._write_session(target, model, partition_by, business_key, additive, material_columns, approval,
      run_id, partitions, packet_sha256, publishing=true) %}
  {% set target_relation, scope, target_columns, audit_fields = session.relation, session.scope, session.columns, session.audit_fields %}
  {% do dbt_backfill._refuse_stale_approval(target_relation, run_id, audit_fields, source, session.planned.expires_at,
      allow_source_drift) %}
  {% set replaced = [] %}
  {% set writes = dbt_backfill.write_guarantees((scope.get('layout') or {}).get('provider') | lower) %}
  {% set stages = dbt_backfill._approved_stages(partitions, target_relation, scope) %}
  {# the partitions' history, read under the table's lock: a later approval's repair is never overwritten #}
  {% set ledger = dbt_backfill._partition_ledger(target_relation, partitions | map(attribute='value') | list) %}
  {% do dbt_backfill._refuse_superseded(ledger, run_id, model, approval, partitions) %}
  {# and what later plans recorded of the windows: rows built through a window found too narrow are not published #}
  {% do dbt_backfill._refuse_window_failure(target_relation, run_id, model, source, partitions, ledger) %}
  {% set watermark_before = dbt_backfill.watermark_state(watermark, target_relation) if watermark else none %}
  {% if control %}
    {% do dbt_backfill._refuse_changed_control(target_relation, scope, control) %}
  {% endif %}
  {% set batch_size = [batch_size | int, 1] | max %}
  {% set batch = [] %}
  {% do dbt_backfill._record_approval(target_relation, run_id, approval, audit_fields) %}

  {% set run = {'run_id': run_id, 'target': target_relation, 'scope': scope, 'columns': target_columns,
                'audit_fields': audit_fields, 'writes': writes, 'ledger': ledger, 'watermark': watermark,
                'watermark_before': watermark_before, 'allow_watermark_move': allow_watermark_move,
                'approved_values': partitions | map(attribute='value') | list} %}
  {% set skipped = [] %}
  {% for partition in partitions %}
    {% do dbt_backfill._progress('replacing', partition.value, loop.index0, loop.length) %}
    {% do dbt_backfill._apply_partition(partition, stages[loop.index0], run, replaced, skipped) %}
    {% do batch.append(partition) %}
    {% if (loop.index - 1) % batch_size == 0 or loop.last %}
      {% do dbt_backfill._checkpoint(target_relation, scope, run_id, audit_fields, batch, control, replaced,
                                     'canary' if loop.first else 'batch ending ' ~ partition.value) %}
      {% do batch.clear() %}
    {% endif %}
  {% endfor %}
  {% do dbt_backfill.record_audit_event(target_relation, 'applied', run_id, dbt_backfill._merged(audit_fields,
      {'outcome': 'replaced ' ~ (replaced | length) ~ ' of ' ~ (partitions | length) ~ ' partitions'})) %}
  {% do dbt_backfill._commit() %}
  {% set left = dbt_backfill._downstream_not_rebuilt(downstream, partitions) %}
  {% do dbt_backfill._emit_result('applied', {'run_id': run_id, 'replaced': replaced, 'downstream_not_rebuilt': left}) %}
  {{ return({'replaced': replaced, 'skipped': skipped, 'target': dbt_backfill._relation_name(target_relation),
             'downstream_not_rebuilt': left}) }}
{% endmacro %}

{# Every approved stage, before anything is touched: it exists, reading it runs no one's code (_check_sources: every
   stage's catalog facts in one read), it
   holds the target's columns (the plan checked its build's: a column added since would be inserted nowhere, or
   refused only inside a partition's write, after others were committed), and its fingerprint equals the packet's
   (every stage's in one read, once all are checked: _fingerprints_of_relations). A stage gone or unsafe to read is
   refused before any stage is read. Returns the stages' relations, in the partitions' order. #}
{% macro _approved_stages(partitions, target_relation, scope) %}
  {% set named = [] %}
  {% for partition in partitions %}
    {% do named.append(api.Relation.create(database=partition.stage.get('database'), schema=partition.stage.schema,
                                           identifier=partition.stage.identifier)) %}
  {% endfor %}
  {% set stages = dbt_backfill._relations_named(named, target_relation) %}
  {% for partition in partitions %}
    {% do dbt_backfill._progress('checking the approved stages', partition.value, loop.index0, loop.length) %}
    {% if stages[loop.index0] is none %}
      {% do dbt_backfill._refuse('stage_missing',
          'the approved stage of partition ' ~ partition.value ~ ' (' ~ partition.stage.schema ~ '.' ~ partition.stage.identifier
          ~ ') no longer exists. Plan again. The target is unchanged.', {'partition': partition.value}) %}
    {% endif %}
  {% endfor %}
  {% do dbt_backfill._check_sources(stages, target_relation, 'stage', partitions | map(attribute='value') | list,
                                    '. The target is unchanged.') %}
  {% set target_columns = dbt_backfill._column_names(target_relation) %}
  {% for stage_now in dbt_backfill._fingerprints_of_relations(stages, scope) %}
    {% set partition = partitions[loop.index0] %}
    {% set stage_columns = dbt_backfill._column_names(stages[loop.index0]) %}
    {% set difference = ('its columns are now ' ~ stage_columns | join(', ') ~ ', not the target\'s ' ~ target_columns | join(', '))
        if stage_columns != target_columns else none if dbt_backfill._same_fingerprint(stage_now, partition.fingerprint)
        else dbt_backfill._fingerprint_difference(partition.fingerprint, stage_now) %}
    {% if difference %}
      {% do dbt_backfill._refuse('stage_changed',
          'the stage of partition ' ~ partition.value ~ ' changed after approval (' ~ difference ~ '). Plan and approve '
          ~ 'again. The target is unchanged.',
          {'partition': partition.value, 'expected': partition.fingerprint, 'actual': stage_now}) %}
    {% endif %}
  {% endfor %}
  {{ return(stages) }}
{% endmacro %}

{# How a fingerprint differs from the approved one, in words: the digests, or where the digest is the same, what it
   leaves apart (the row count, the null keys, the algorithm, an additive column's total). #}
{% macro _fingerprint_difference(approved, now) %}
  {% if now.sha256 != approved.sha256 %}
    {{ return('sha256 ' ~ approved.sha256[:12] ~ '… approved, ' ~ now.sha256[:12] ~ '… now') }}
  {% endif %}
  {% set parts = [] %}
  {% for field in ['row_count', 'null_keys', 'duplicate_keys', 'algorithm'] if now[field] is not none
      and approved.get(field) is not none and (now[field] | string) != (approved.get(field) | string) %}
    {% do parts.append(field ~ ' ' ~ approved.get(field) ~ ' approved, ' ~ now[field] ~ ' now') %}
  {% endfor %}
  {% for column, total in now.totals.items() if ((approved.get('totals') or {}).get(column) | string) != total %}
    {% do parts.append('the total of ' ~ column ~ ' ' ~ (approved.get('totals') or {}).get(column) ~ ' approved, ' ~ total ~ ' now') %}
  {% endfor %}
  {{ return('the same sha256 ' ~ now.sha256[:12] ~ '…, but ' ~ (parts | join('; ') or 'another total')) }}
{% endmacro %}

{# The control partition, before the first replacement: it must still equal its plan-time fingerprint. #}
{% macro _refuse_changed_control(target_relation, scope, control) %}
  {% set control_now = dbt_backfill._fingerprint_in_scope(target_relation, scope, control.value, true) %}
  {% if not dbt_backfill._same_fingerprint(control_now, control.fingerprint) %}
    {% do dbt_backfill._refuse('control_changed',
        'control partition ' ~ control.value ~ ', outside the backfill, changed since the plan (sha256 ' ~ control.fingerprint.sha256[:12]
        ~ '… planned, ' ~ control_now.sha256[:12] ~ '… now): something else is writing this table\'s history. Find out what before '
        ~ 'replacing anything; plan again when it is quiet. The target is unchanged.',
        {'control': control.value, 'expected': control.fingerprint, 'actual': control_now}) %}
  {% endif %}
{% endmacro %}

{# The approval is an event of its own, recorded once: by the first apply (a rerun or a resume adds no second row),
   stamped with the approval's own time in `detail`. #}
{% macro _record_approval(target_relation, run_id, approval, audit_fields) %}
  {% set audit = dbt_backfill._audit_relation(target_relation) %}
  {% set recorded = dbt_backfill._execute("select approved_by, detail from " ~ audit ~ " where event = 'approved' and run_id = "
      ~ dbt_backfill._sql_literal(run_id) ~ ' and ' ~ dbt_backfill._trusted_writer(audit, target_relation)).rows %}
  {# an approval recorded by `approve` is the run's one approval: a copy of the packet approved by someone else
     (without telling approve where the target is) is not a second one #}
  {% for row in recorded if row[0] != approval.get('approved_by') %}
    {% do dbt_backfill._refuse('approval_conflict', 'run ' ~ run_id ~ '\'s approval is recorded as by ' ~ row[0] ~ ' (' ~ row[1]
        ~ '), but this packet\'s is by ' ~ approval.get('approved_by') ~ ': the packet was approved twice, by two people. '
        ~ 'Apply the packet whose approval is recorded. The target is unchanged.', {'run_id': run_id}) %}
  {% endfor %}
  {% if not recorded %}
    {% do dbt_backfill.record_audit_event(target_relation, 'approved', run_id, dbt_backfill._merged(audit_fields,
        {'detail': 'approved at ' ~ approval.get('approved_at') ~ (' (recorded when approved'
                   if approval.get('recorded_when_approved') else ' (recorded by its first apply')
                   ~ dbt_backfill._signatures_said(approval) ~ ')',
         'outcome': ('despite its review: ' ~ approval.despite) if approval.get('despite') else none})) %}
  {% endif %}
  {% do dbt_backfill._commit() %}
{% endmacro %}

{#
  One approved partition, in one transaction: fingerprint the target's partition — equal to the approval (fingerprint
  and commitment): already replaced by an earlier, interrupted apply, skip it (`skipped`); else replace it
  (_replace_approved_partition, which appends it to `replaced`). `run`: {run_id, target, scope, columns,
  audit_fields, writes, ledger, watermark, watermark_before, allow_watermark_move, approved_values}.
#}
{% macro _apply_partition(partition, stage_relation, run, replaced, skipped) %}
  {% set started = modules.datetime.datetime.now() %}
  {% do dbt_backfill._begin_writing(run.target, partition.value, 'Partitions replaced before it: '
      ~ (replaced | join(', ') or 'none') ~ '; this partition and the rest are unchanged.') %}
  {% set current = dbt_backfill._fingerprint_in_scope(run.target, run.scope, partition.value, true) %}
  {# equal to the approval: the fingerprint, and the commitment too (the fingerprint's sum can be made to collide) #}
  {% set already = dbt_backfill._same_fingerprint(current, partition.fingerprint) and (partition.commitment is none
      or dbt_backfill._commitment_in_scope(run.target, run.scope, current.row_count, partition.value, true) == partition.commitment) %}
  {% if already %}
    {% do dbt_backfill.record_audit_event(run.target, 'partition_skipped', run.run_id, dbt_backfill._merged(run.audit_fields,
        {'partition_value': partition.value, 'fingerprint_after': current, 'outcome': 'already equal to the approval'})) %}
    {% do dbt_backfill._commit() %}
    {# who put these rows there, when it was not this run: another run that wrote the same rows #}
    {% set writes = run.ledger.writes[partition.value] %}
    {% set by_other = writes[-1] if writes and writes[-1].run_id != run.run_id and writes[-1].event == 'replaced'
        and writes[-1].fingerprint and dbt_backfill._same_fingerprint(current, writes[-1].fingerprint) else none %}
    {% do dbt_backfill._emit_result('partition_skipped', {'value': partition.value, 'fingerprint': current,
        'note': ('the same rows as ' ~ dbt_backfill._describe_write(by_other)) if by_other else none}) %}
    {% do skipped.append(partition.value) %}
  {% else %}
    {% do dbt_backfill._replace_approved_partition(partition, stage_relation, current, started, run, replaced) %}
  {% endif %}
{% endmacro %}

{#
  Replace one approved partition that still holds what the plan found (else `target_changed`): back it up, replace
  it checked (_replace_checked: the stage read in this transaction, no key published twice, the partition read back
  equal to the approval), check the live job's watermark, write the audit row and commit; after the commit, a
  state table or query watermark must still read as before.
#}
{% macro _replace_approved_partition(partition, stage_relation, current, started, run, replaced) %}
  {% set target_relation, scope, target_columns, audit_fields = run.target, run.scope, run.columns, run.audit_fields %}
  {% set run_id, writes, watermark, watermark_before = run.run_id, run.writes, run.watermark, run.watermark_before %}
  {% if not dbt_backfill._same_fingerprint(current, partition.target_before) %}
    {% do dbt_backfill._refuse('target_changed',
        'partition ' ~ partition.value ~ ' changed since the plan (sha256 ' ~ partition.target_before.sha256[:12] ~ '… planned on, '
        ~ current.sha256[:12] ~ '… now): the approved change summary no longer describes it. Partitions replaced before it: '
        ~ (replaced | join(', ') or 'none') ~ '; this partition and the rest are unchanged. Plan again.',
        {'partition': partition.value, 'expected': partition.target_before, 'actual': current, 'replaced': replaced}) %}
  {% endif %}
  {% do dbt_backfill._step('replacing partition ' ~ partition.value,
      'the database rejected the replacement of partition ' ~ partition.value ~ ' (see its error below): '
      ~ writes.failed_write ~ '. Partitions replaced before it: ' ~ (replaced | join(', ') or 'none')
      ~ '; the rest are unchanged.') %}
  {% set backup_relation = dbt_backfill._relation(partition.backup) %}
  {% set predicate = dbt_backfill._partition_predicate(scope.partition_column, partition.value) %}
  {% do dbt_backfill._fault_point('before_backup') %}
  {# `before` and `scope`: an engine that backs up by reference (Delta's clone, Iceberg's tag) checks the rows it keeps #}
  {% do dbt_backfill.backup_partition(target_relation, backup_relation, predicate, dbt_backfill._merged(
      dbt_backfill._write_unit(scope, partition.value), {'before': current, 'scope': scope})) %}
  {% do dbt_backfill._fault_point('after_backup') %}
  {% set after = dbt_backfill._replace_checked(target_relation, stage_relation, scope, partition.value, target_columns,
      partition.fingerprint, 'target_mismatch', 'the approved fingerprint after replacement', 'replaced', replaced,
      undo_from=backup_relation, keys_outside=run.approved_values,
      commitment=partition.commitment) %}
  {% if watermark_before and not (watermark_before.kind == 'column' and run.allow_watermark_move) %}
    {% set watermark_now = dbt_backfill.watermark_state(watermark, target_relation) %}
    {% if dbt_backfill._watermark_moved(target_relation, watermark_before, watermark_now) %}
      {% set undone = dbt_backfill.undo_replacement(target_relation, backup_relation, scope, partition.value, target_columns) %}
      {% do dbt_backfill._refuse('watermark_moved',
          'replacing partition ' ~ partition.value ~ ' would ' ~ ('raise' if watermark_before.kind == 'column' else 'change')
          ~ ' the live job\'s watermark (' ~ dbt_backfill._describe_watermark(watermark_before) ~ ': ' ~ watermark_before.value
          ~ ' -> ' ~ watermark_now.value ~ '): ' ~ undone ~ '. Partitions replaced before it: '
          ~ (replaced | join(', ') or 'none') ~ '; this partition and the rest are unchanged.',
          {'partition': partition.value, 'before': watermark_before, 'after': watermark_now, 'replaced': replaced}) %}
    {% endif %}
  {% endif %}
  {% do dbt_backfill._fault_point('before_commit') %}
  {% do dbt_backfill.record_audit_event(target_relation, 'partition_replaced', run_id, dbt_backfill._merged(audit_fields, {
      'partition_value': partition.value, 'fingerprint_before': current, 'fingerprint_after': after,
      'duration_ms': ((modules.datetime.datetime.now() - started).total_seconds() * 1000) | int,
      'outcome': 'replaced', 'detail': dbt_backfill._relation_name(backup_relation)})) %}
  {% do dbt_backfill._commit() %}
  {% do replaced.append(partition.value) %}
  {% do dbt_backfill._emit_result('partition_replaced', {
      'value': partition.value, 'fingerprint': after, 'backup': dbt_backfill._relation_ref(backup_relation)}) %}
  {% do dbt_backfill._fault_point('after_commit') %}
  {% if watermark_before and watermark_before.kind != 'column' %}
    {% set watermark_now = dbt_backfill.watermark_state(watermark, target_relation) %}
    {% if watermark_now.value != watermark_before.value %}
      {% do dbt_backfill._refuse('watermark_moved_concurrently',
          'the live job\'s watermark (' ~ dbt_backfill._describe_watermark(watermark_before) ~ ') changed after partition '
          ~ partition.value ~ ' was committed: a scheduled run is writing concurrently. Partitions replaced: '
          ~ replaced | join(', ') ~ '; the rest are unchanged. Check the target with `dbt-backfill verify` before going on.',
          {'before': watermark_before, 'after': watermark_now, 'replaced': replaced}) %}
    {% endif %}
  {% endif %}
{% endmacro %}

{# After the canary and after each batch: every partition of it, read back as committed, equals the approval, and
   the control partition is unchanged; else stop. One read of them all (_fingerprints_in_scope). #}
{% macro _checkpoint(target_relation, scope, run_id, audit_fields, batch, control, replaced, label) %}
  {% set drifted = [] %}
  {% set read_back = dbt_backfill._fingerprints_in_scope(target_relation, scope,
      (batch | map(attribute='value') | list) + ([control.value] if control else [])) %}
  {% for partition in batch %}
    {% set now = read_back[partition.value | string] %}
    {% if not dbt_backfill._same_fingerprint(now, partition.fingerprint) %}
      {% do drifted.append(partition.value ~ ' (sha256 ' ~ now.sha256[:12] ~ '… read back, ' ~ partition.fingerprint.sha256[:12] ~ '… approved)') %}
    {% endif %}
  {% endfor %}
  {% if control %}
    {% set control_now = read_back[control.value | string] %}
    {% if not dbt_backfill._same_fingerprint(control_now, control.fingerprint) %}
      {% do drifted.append('control partition ' ~ control.value ~ ' (sha256 ' ~ control_now.sha256[:12] ~ '… now, '
          ~ control.fingerprint.sha256[:12] ~ '… planned)') %}
    {% endif %}
  {% endif %}
  {% do dbt_backfill._commit() %}
  {% set values = batch | map(attribute='value') | list %}
  {% if drifted %}
    {% do dbt_backfill.record_audit_event(target_relation, 'checkpoint_failed', run_id, dbt_backfill._merged(audit_fields,
        {'outcome': label, 'detail': drifted | join('; ')})) %}
    {% do dbt_backfill._commit() %}
    {% do dbt_backfill._refuse('checkpoint_failed',
        'the checkpoint after the ' ~ label ~ ' failed: ' ~ drifted | join('; ') ~ '. Stopped before the next batch. Partitions '
        ~ 'replaced: ' ~ (replaced | join(', ') or 'none') ~ ' (committed; `rollback` restores them from their backups); the rest are unchanged.',
        {'checkpoint': label, 'drifted': drifted, 'replaced': replaced}) %}
  {% endif %}
  {% do dbt_backfill.record_audit_event(target_relation, 'checkpoint', run_id, dbt_backfill._merged(audit_fields,
      {'outcome': label, 'detail': values | join(', ') ~ ((' + control ' ~ control.value) if control else '')})) %}
  {% do dbt_backfill._commit() %}
  {% do dbt_backfill._emit_result('checkpoint', {'label': label, 'partitions': values, 'control': control.value if control else none}) %}
{% endmacro %}

{#
  Refuse, before anything is written, an apply whose approval a later one superseded: a partition of the packet
  that a run approved after this one (its approval's time, then its plan's) already replaced, whether or not that
  run was rolled back since. Its approver decided on newer rows; an older approval never overwrites that silently.
#}
{% macro _refuse_superseded(ledger, run_id, model, approval, partitions) %}
  {% set own = ledger.runs.get(run_id) or {} %}
  {# the approval's time as the trail proves it (_partition_ledger): one given offline and not recorded yet counts as
     given at its plan, never at the packet's editable text #}
  {% set own_order = [own.get('approved_at') or own.get('planned_at') or '', own.get('planned_at') or ''] %}
  {% for partition in partitions %}
    {% for write in ledger.writes[partition.value] | reverse if write.event in ('replaced', 'adopted') and write.run_id != run_id %}
      {% set other = ledger.runs.get(write.run_id) or {} %}
      {% if [other.get('approved_at') or '', other.get('planned_at') or ''] > own_order %}
        {% set values = partitions | map(attribute='value') | join(',') %}
        {% do dbt_backfill._refuse('superseded',
            'partition ' ~ partition.value ~ ' was replaced by run ' ~ write.run_id ~ ' at ' ~ write.at ~ ', approved by '
            ~ (other.get('approved_by') or write.approved_by or 'an unrecorded approver') ~ dbt_backfill._approval_time_said(other)
            ~ ', after this run\'s approval (by ' ~ approval.get('approved_by')
            ~ dbt_backfill._approval_time_said({'approved_at': own_order[0], 'approval_proven': own.get('approval_proven')})
            ~ '): the later '
            ~ 'approval supersedes this one there' ~ (', and that run was rolled back since' if write.run_id not in ledger.holders[partition.value] else '')
            ~ '. Nothing was replaced; the target is unchanged. To repair from what the table holds now, plan again: `'
            ~ dbt_backfill._plan_command(ledger, run_id, model, values) ~ '`.',
            {'partition': partition.value, 'later_run': write.run_id, 'later_approved_at': other.get('approved_at')}) %}
      {% endif %}
    {% endfor %}
  {% endfor %}
{% endmacro %}

{# When an approval was given, as the trail proves it: " at <the database's time>", or, for one given offline,
   ", given offline (its time unproven: dated by its plan, <the plan's time>)" #}
{% macro _approval_time_said(run) %}
  {{ return(' at ' ~ run.approved_at if run.get('approval_proven')
            else ', given offline (its time unproven: dated by its plan, ' ~ run.get('approved_at') ~ ')') }}
{% endmacro %}
