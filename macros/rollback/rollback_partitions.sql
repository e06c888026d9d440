{#
  Undo an apply: restore every replaced partition from its backup, one transaction each, and commit only when
  the partition equals the plan's target_before again. Per partition, the target's current fingerprint decides:
  equal to target_before, and its commitment too (every column, the excluded ones included) — nothing to undo
  (never replaced, or already restored), skip; equal to the approval — restore from the backup (which must
  exist); anything else — changed since the apply: refuse, this partition and the rest unchanged. Takes the table's backfill lock like apply. `rolled_back_by` says who ran it (the CLI:
  --by, else "OS user <name>"); each `rolled_back` row records it as its detail, "by <who>".
  Across runs (the partition ledger, read under the lock before anything is restored): a partition on which a
  later run still standing wrote, or took as its own, or that a full refresh rebuilt after this run, refuses the
  whole rollback (`later_run_wrote`); a partition this run never replaced (no replacement of its own, no backup) is
  left as it is and said so, and where its apply had taken it as its own a `rolled_back` row `released` takes the
  run off it. Downstream (`downstream`: the packet's list), the runs still holding rows built from what was just
  restored are named with the command that rolls each back (_downstream_still_applied): rolled back in either
  order, the end is the same, but until then they hold what no longer matches their parent.
#}
{% macro rollback_partitions(run_id, model, target, partition_by, business_key, material_columns, partitions, additive=[],
                             approval={}, packet_sha256=none, rolled_back_by=none, downstream=[]) %}
  {% do dbt_backfill._refuse_unproven_approval(model, run_id, approval, dbt_backfill._relation(target)) %}
  {% set session = dbt_backfill._write_session(target, model, partition_by, business_key, additive, material_columns, approval,
      run_id, partitions, packet_sha256) %}
  {% set target_relation, scope, target_columns, audit_fields = session.relation, session.scope, session.columns, session.audit_fields %}
  {% set restored = [] %}
  {# the partitions' history, read under the table's lock: no run writes them while this one reads and restores #}
  {% set ledger = dbt_backfill._partition_ledger(target_relation, partitions | map(attribute='value') | list) %}
  {% do dbt_backfill._refuse_undoing_a_later_run(ledger, run_id, model, partitions) %}
  {# downstream, read before anything is restored: a failure to read it stops the rollback with nothing written #}
  {% set downstream_after = dbt_backfill._downstream_still_applied(downstream, ledger, run_id) %}
  {% set run = {'run_id': run_id, 'target': target_relation, 'scope': scope, 'columns': target_columns,
                'audit_fields': audit_fields, 'ledger': ledger, 'rolled_back_by': rolled_back_by} %}
  {% for partition in partitions %}
    {% do dbt_backfill._progress('restoring', partition.value, loop.index0, loop.length) %}
    {% do dbt_backfill._rollback_partition(partition, run, restored) %}
  {% endfor %}
  {% set left = dbt_backfill._still_applied_after(downstream_after, restored) %}
  {% do dbt_backfill._emit_result('rolled_back', {'run_id': run_id, 'restored': restored, 'downstream_still_applied': left}) %}
  {{ return({'restored': restored, 'downstream_still_applied': left}) }}
{% endmacro %}

{#
  One partition, in one transaction, as its fingerprint now decides: never replaced by this run, left as it is
  (_leave_unreplaced); as the plan found it, nothing to undo if its backup agrees (_backup_agrees) and its
  commitment is the one before too (an apply that rewrote only excluded columns is restored); as
  approved, restored from its backup (which must exist) through _replace_checked, and appended to `restored`;
  anything else changed after the apply: refused. `run`: {run_id, target, scope, columns, audit_fields, ledger,
  rolled_back_by}.
#}
{% macro _rollback_partition(partition, run, restored) %}
  {% set target_relation, scope, target_columns, audit_fields = run.target, run.scope, run.columns, run.audit_fields %}
  {% set run_id, ledger, rolled_back_by = run.run_id, run.ledger, run.rolled_back_by %}
  {% set started = modules.datetime.datetime.now() %}
  {% do dbt_backfill._begin_writing(target_relation, partition.value, 'Partitions restored before it: '
      ~ (restored | join(', ') or 'none') ~ '; this partition and the rest are unchanged.') %}
  {% set current = dbt_backfill._fingerprint_in_scope(target_relation, scope, partition.value, true) %}
  {% set writes = ledger.writes[partition.value] %}
  {% set own_backup = adapter.get_relation(database=partition.backup.get('database'), schema=partition.backup.schema,
                                           identifier=partition.backup.identifier) %}
  {#
    This run never replaced it: no `partition_replaced` of its own, and no backup (a backup is made in the
    replacement's own transaction; on Spark, before the swap, which may have happened without its audit row).
    Nothing of this run is there to undo: what another run wrote is that run's to undo, and a partition this
    run's apply took as its own (already holding its rows) or never reached is left as it is.
  #}
  {% if not (writes | selectattr('run_id', 'equalto', run_id) | selectattr('event', 'equalto', 'replaced') | list)
        and own_backup is none %}
    {% do dbt_backfill._leave_unreplaced(partition, current, writes, run) %}
    {{ return(none) }}
  {% endif %}
  {# as before in every column: the commitment too, which covers the excluded columns the fingerprint leaves out
     (an apply that rewrote only those left the fingerprint as it was); the backup must agree either way #}
  {% if dbt_backfill._same_fingerprint(current, partition.target_before) %}
    {% do dbt_backfill._backup_agrees(partition, current, run, restored) %}
    {% if partition.get('target_before_commitment') is none or partition.target_before_commitment
          == dbt_backfill._commitment_in_scope(target_relation, scope, current.row_count, partition.value, true) %}
      {% do dbt_backfill._commit() %}
      {% do dbt_backfill._emit_result('partition_skipped', {'value': partition.value, 'fingerprint': current}) %}
      {{ return(none) }}
    {% endif %}
  {% endif %}
  {% set backup_relation = adapter.get_relation(database=partition.backup.get('database'), schema=partition.backup.schema,
                                                identifier=partition.backup.identifier) %}
  {% set as_approved = dbt_backfill._same_fingerprint(current, partition.fingerprint) %}
  {% if backup_relation is none %}
    {% set dropped = dbt_backfill._backup_dropped_by_clean(target_relation, run_id, partition.backup) %}
    {% do dbt_backfill._refuse('backup_gone',
        'partition ' ~ partition.value ~ ' cannot be rolled back: its backup ' ~ dbt_backfill._relation_name(partition.backup)
        ~ (' was dropped by ' ~ dropped.how ~ ' at ' ~ dropped.at ~ (' (by ' ~ dropped.by ~ ')' if dropped.by else '')
           ~ ', as the audit trail records it'
           if dropped else ' is gone, and no clean of this run recorded dropping it (it was dropped outside dbt-backfill)')
        ~ '. The partition ' ~ ('holds the approved rows (as applied; sha256 ' if as_approved else 'is neither as planned nor as approved (sha256 ')
        ~ current.sha256[:12] ~ '… now). Partitions restored before it: ' ~ (restored | join(', ') or 'none')
        ~ '; this partition and the rest are unchanged.',
        {'partition': partition.value, 'actual': current, 'restored': restored, 'as_approved': as_approved,
         'dropped_by_clean': dropped}) %}
  {% endif %}
  {% if not as_approved %}
    {% do dbt_backfill._refuse('target_changed',
        'partition ' ~ partition.value ~ ' is neither as planned nor as approved (sha256 ' ~ current.sha256[:12] ~ '… now)'
        ~ ': it changed after the apply, so restoring '
        ~ 'the backup would overwrite that change. Partitions restored before it: ' ~ (restored | join(', ') or 'none')
        ~ '; this partition and the rest are unchanged.', {'partition': partition.value, 'actual': current, 'restored': restored}) %}
  {% endif %}
  {% set after = dbt_backfill._replace_checked(target_relation, backup_relation, scope, partition.value, target_columns,
      partition.target_before, 'restore_mismatch', 'its fingerprint before the apply after restoring the backup',
      'restored', restored, source_as='backup', source_expected_as='the partition as the plan found it',
      commitment=partition.get('target_before_commitment')) %}
  {% do dbt_backfill.record_audit_event(target_relation, 'rolled_back', run_id, dbt_backfill._merged(audit_fields, {
      'partition_value': partition.value, 'fingerprint_before': current, 'fingerprint_after': after,
      'duration_ms': ((modules.datetime.datetime.now() - started).total_seconds() * 1000) | int, 'outcome': 'restored',
      'detail': ('by ' ~ rolled_back_by) if rolled_back_by else none})) %}
  {% do dbt_backfill._fault_point('rollback_before_commit') %}
  {% do dbt_backfill._commit() %}
  {% do restored.append(partition.value) %}
  {% do dbt_backfill._emit_result('partition_restored', {'value': partition.value, 'fingerprint': after}) %}
{% endmacro %}

{# A partition this run never replaced: skipped, and said why (who wrote the rows it holds, or that its apply took
   it as its own or never reached it); where this run's apply had taken it as its own, a `rolled_back` row
   `released` takes the run off its holders. #}
{% macro _leave_unreplaced(partition, current, writes, run) %}
  {% set target_relation, audit_fields = run.target, run.audit_fields %}
  {% set run_id, ledger, rolled_back_by = run.run_id, run.ledger, run.rolled_back_by %}
  {% set explaining = [] %}
  {% for write in writes if write.run_id != run_id and write.event == 'replaced' and write.fingerprint
        and dbt_backfill._same_fingerprint(current, write.fingerprint) %}{% do explaining.append(write) %}{% endfor %}
  {% set by_other = explaining[-1] if explaining else none %}
  {% set adopted = run_id in ledger.holders[partition.value] %}
  {% if adopted %}
    {# off the partition's holders: a run written over this one can be rolled back again #}
    {% do dbt_backfill.record_audit_event(target_relation, 'rolled_back', run_id, dbt_backfill._merged(audit_fields, {
        'partition_value': partition.value, 'fingerprint_before': current, 'fingerprint_after': current,
        'outcome': 'released', 'detail': ('by ' ~ rolled_back_by) if rolled_back_by else none})) %}
  {% endif %}
  {% do dbt_backfill._commit() %}
  {% do dbt_backfill._emit_result('partition_skipped', {'value': partition.value, 'fingerprint': current,
      'written_by': by_other.run_id if by_other else none,
      'note': 'not replaced by this run: ' ~ (dbt_backfill._describe_write(by_other) ~ ' and it still holds those rows; '
              ~ ('that run\'s backup ' ~ dbt_backfill._backup_gone(by_other) ~ ' is gone, so nothing can undo it there'
                 if dbt_backfill._backup_gone(by_other) else '`' ~ dbt_backfill._rollback_command(ledger, by_other.run_id)
                 ~ '` undoes that') if by_other
              else 'its apply found it already holding the approved rows' if adopted
              else 'its apply never wrote it, so there is nothing of it to undo there')}) %}
{% endmacro %}

{# A partition whose fingerprint is as the packet says it was before the apply: its backup (when there is one) must
   agree, else the packet's target_before or the backup changed after the apply (refused). Then the commitment
   decides (_rollback_partition): as before in every column, nothing to undo; else only excluded columns differ, and
   it is restored. #}
{% macro _backup_agrees(partition, current, run, restored) %}
  {% set target_relation, scope = run.target, run.scope %}
  {% set kept_backup = adapter.get_relation(database=partition.backup.get('database'), schema=partition.backup.schema,
                                            identifier=partition.backup.identifier) %}
  {% if kept_backup is not none %}
    {% set unsafe = dbt_backfill._unsafe_to_read(kept_backup, target_relation) %}
    {% if unsafe %}
      {% do dbt_backfill._refuse('backup_not_readable',
          'partition ' ~ partition.value ~ ' holds what the packet says it held before the apply, but its backup '
          ~ dbt_backfill._relation_name(kept_backup) ~ ' is ' ~ unsafe | join(', ') ~ ': it was not read, so nothing '
          ~ 'confirms the packet. Partitions restored before it: ' ~ (restored | join(', ') or 'none')
          ~ '; this partition and the rest are unchanged.', {'partition': partition.value, 'unsafe': unsafe}) %}
    {% endif %}
    {% set in_backup = dbt_backfill._backup_fingerprint(kept_backup, target_relation, scope, partition.value) %}
    {% if not dbt_backfill._same_fingerprint(in_backup, current) %}
      {% do dbt_backfill._refuse('backup_disagrees',
          'partition ' ~ partition.value ~ ' holds what the packet says it held before the apply (sha256 '
          ~ current.sha256[:12] ~ '…), but its backup ' ~ dbt_backfill._relation_name(kept_backup) ~ ' holds other rows '
          ~ '(sha256 ' ~ in_backup.sha256[:12] ~ '…): the packet or the backup changed after the apply, so neither '
          ~ 'can say what to restore. Partitions restored before it: ' ~ (restored | join(', ') or 'none')
          ~ '; this partition and the rest are unchanged.',
          {'partition': partition.value, 'actual': current, 'backup': in_backup, 'restored': restored}) %}
    {% endif %}
  {% endif %}
{% endmacro %}

{# The `cleaned` audit row of this run that dropped `backup_ref`: {at, by}, or none. Read from the audit trail, so a
   rollback says what happened to the backup rather than guessing. #}
{% macro _backup_dropped_by_clean(target_relation, run_id, backup_ref) %}
  {% set audit = dbt_backfill._audit_relation(target_relation) %}
  {% if adapter.get_relation(database=audit.database, schema=audit.schema, identifier=audit.identifier) is none %}
    {{ return(none) }}
  {% endif %}
  {# the packet may leave the database out of the backup's reference: compared by schema and name #}
  {% set name = backup_ref.schema ~ '.' ~ backup_ref.identifier %}
  {% set rows = dbt_backfill._execute('select cast(recorded_at as ' ~ dbt.type_string() ~ ') as recorded_at, outcome, detail from ' ~ audit
      ~ ' where run_id = ' ~ dbt_backfill._sql_literal(run_id) ~ " and event = 'cleaned' and "
      ~ dbt_backfill._trusted_writer(audit, target_relation) ~ ' order by recorded_at desc').rows %}
  {% for row in rows %}
    {# {dropped, by}; a clean of an earlier version wrote the names alone, joined by ', ' #}
    {% set detail = fromjson(row['detail']) if (row['detail'] or '').startswith('{')
        else {'dropped': (row['detail'] or '').split(', ')} %}
    {% for dropped in detail.get('dropped', []) if dropped == name or dropped.endswith('.' ~ name) %}
      {# how, from the row's own outcome: the command that dropped it #}
      {% set outcome = row['outcome'] or '' %}
      {% set how = '`dbt-backfill clean --drop-backups`' if '--drop-backups' in outcome
          else '`dbt-backfill clean --orphans`' if '--orphans' in outcome else 'a clean of this run' %}
      {{ return({'at': row['recorded_at'], 'by': detail.get('by'), 'how': how}) }}
    {% endfor %}
  {% endfor %}
  {{ return(none) }}
{% endmacro %}

{#
  Refuse, before anything is restored, a rollback of `run_id` that would undo what came after it: a partition this
  run wrote (or took as its own) on which, later, another run still standing wrote or took it as its own, or an
  allowed full refresh rebuilt it. Names that run (its approver, when) and the command that rolls it back first — or,
  where it cannot be rolled back (its backup is gone, a full refresh), the plan that changes the partition; says when
  this run was itself rolled back already.
#}
{% macro _refuse_undoing_a_later_run(ledger, run_id, model, partitions) %}
  {% for partition in partitions %}
    {% set holders = ledger.holders[partition.value] %}
    {% set writes = ledger.writes[partition.value] %}
    {% set own = writes | selectattr('run_id', 'equalto', run_id) | list %}
    {% set after = [] %}
    {% for write in writes if own and write.seq > own[-1].seq and write.run_id != run_id
          and (write.event == 'full_refresh' or (write.event in ('replaced', 'adopted') and write.run_id in holders)) %}
      {% do after.append(write) %}
    {% endfor %}
    {% if after %}
      {% set later = after[-1] %}
      {% set undone = own[-1] if own[-1].event in ('restored', 'released') else none %}
      {% set gone = dbt_backfill._backup_gone(later) %}
      {% set values = partitions | map(attribute='value') | join(',') %}
      {% set next = ('A full refresh cannot be rolled back; to change the partition, plan it again: `'
                     ~ dbt_backfill._plan_command(ledger, run_id, model, values) ~ '`.') if later.event == 'full_refresh'
          else ('Run ' ~ later.run_id ~ ' cannot be rolled back there either: its backup ' ~ gone ~ ' is gone. To change '
                ~ 'the partition, plan it again: `' ~ dbt_backfill._plan_command(ledger, run_id, model, values) ~ '`.') if gone
          else 'To undo run ' ~ later.run_id ~ ': `' ~ dbt_backfill._rollback_command(ledger, later.run_id) ~ '`.' %}
      {% do dbt_backfill._refuse('later_run_wrote',
          'partition ' ~ partition.value ~ ' was written after run ' ~ run_id ~ ': ' ~ dbt_backfill._describe_write(later)
          ~ (', after run ' ~ run_id ~ ' itself was rolled back at ' ~ undone.at ~ ' (by ' ~ (undone.by or 'an unrecorded user') ~ ')'
             if undone else '')
          ~ '. Rolling back run ' ~ run_id ~ ' now would undo that later ' ~ ('rebuild' if later.event == 'full_refresh' else 'repair')
          ~ ', so nothing was restored: every partition is unchanged. '
          ~ ('Run ' ~ run_id ~ ' has nothing left to undo there. ' if undone else '') ~ next,
          {'partition': partition.value, 'later_run': later.run_id, 'later_approved_by': later.approved_by,
           'later_at': later.at, 'rolled_back_at': undone.at if undone else none}) %}
    {% endif %}
  {% endfor %}
{% endmacro %}
