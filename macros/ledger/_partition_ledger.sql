{#
  The partition ledger: what the audit trail says wrote each partition of the target, across every run. One read of
  the audit table (no second store), oldest first:
    writes    per partition value, each replacement (`replaced`), adoption (`adopted`: an apply found it already
              holding its approved rows), restore (`restored`) and release (`released`: a rollback with nothing of
              its own to undo) a dbt-backfill run committed there, and each allowed full refresh (`full_refresh`,
              every partition): {at, run_id, event, approved_by, approval_proof, by, fingerprint (after the write),
              reason, backup (a replacement's), seq (its place in the trail), instant (a dbt-backfill write's
              recorded_at as text, whole: `at` is cut to the second)};
    holders   per partition value, the runs whose rows it holds as the trail tells it, the last on top: a
              replacement or an adoption puts its run on top, a restore or a release takes its run off, a full
              refresh clears it. A run that is in `holders` but not on top was written over by the run on top;
    runs      per run that planned, was approved or wrote here: {approved_by, approved_at (the database's time of its
              approval where recorded when given, else its plan's: approval_proven false), approval_proof (how it
              was proven: the keys that signed it, the logins that gave it and had not withdrawn it when the run
              first wrote, none for a typed name), planned_at, packet (the
              packet file the CLI's plan wrote, as it was named), pure_dbt, partitions (as planned), verdict,
              cleaned (the last `cleaned` row: {at, by}; its stages are gone, so its packet can no longer apply)}.
  `values`: the partitions to read (none: every partition the trail names). What a partition holds now is the
  caller's to read (a fingerprint): the ledger says who wrote it, the partition says whether it still holds that.
#}
{% macro _partition_ledger(target_relation, values=none) %}
  {% set audit = dbt_backfill._audit_relation(target_relation) %}
  {% set ledger = {'writes': {}, 'holders': {}, 'runs': {}} %}
  {% for value in values or [] %}
    {% do ledger.writes.update({value | string: []}) %}{% do ledger.holders.update({value | string: []}) %}
  {% endfor %}
  {% if adapter.get_relation(database=audit.database, schema=audit.schema, identifier=audit.identifier) is none %}
    {{ return(ledger) }}
  {% endif %}
  {% do dbt_backfill.refuse_untrusted_audit_table(audit, target_relation) %}
  {# an approval given with a login is the writer's own row (PostgreSQL names it; no role can write another's name):
     read whoever wrote it, as the policy counts it (_approving_roles); elsewhere no row names its writer #}
  {% set writer = dbt_backfill._recorded_by_column() %}
  {% set rows = dbt_backfill._execute('select cast(recorded_at as ' ~ dbt.type_string() ~ ') as recorded_at, run_id, event, '
      ~ 'partition_value, approved_by, fingerprint_after, outcome, detail, ' ~ writer ~ ' as recorded_by from ' ~ audit
      ~ ' where target = ' ~ dbt_backfill._sql_literal(dbt_backfill._relation_name(target_relation))
      ~ " and (event in ('planned', 'packet_recorded', 'approved', 'partition_replaced', 'partition_skipped', 'rolled_back', "
      ~ "'full_refresh', 'cleaned') and " ~ dbt_backfill._trusted_writer(audit, target_relation)
      ~ " or event in ('approval_given', 'approval_revoked') and " ~ writer ~ ' is not null) order by recorded_at, run_id').rows %}
  {% for row in rows %}
    {% set run = ledger.runs.setdefault(row['run_id'], {'approved_by': none, 'approved_at': none, 'planned_at': none,
                                                         'packet': none, 'pure_dbt': false, 'partitions': [], 'verdict': none,
                                                         'cleaned': none, 'approved_detail': none, 'logins': []}) %}
    {% set event, value, at, seq = row['event'], row['partition_value'], (row['recorded_at'] | string)[:19], loop.index %}
    {% if event in ('planned', 'packet_recorded') %}
      {% do run.update({'planned_at': run.planned_at or at, 'pure_dbt': event == 'packet_recorded', 'verdict': row['outcome']}) %}
      {# the CLI's plan records "<partitions> (<packet path>)"; pure dbt, the packet itself #}
      {% set named = modules.re.search(' \\(([^()]+)\\)$', row['detail'] or '') if event == 'planned' else none %}
      {% if named %}
        {% do run.update({'packet': named.group(1), 'partitions': (row['detail'][:named.start()]).split(', ')}) %}
      {% elif event == 'packet_recorded' and (row['detail'] or '').startswith('{') %}
        {% do run.update({'partitions': ((fromjson(row['detail']) or {}).get('partitions') or []) | map(attribute='value') | map('string') | list}) %}
      {% endif %}
    {% elif event == 'approved' and run.approved_at is none %}
      {# an approval is dated by what proves it, never by the packet's text (issue 55): the database's clock where the
         row was recorded when the approval was given (`approve --target`, pure dbt's apply_backfill); else, recorded
         by the first apply of an approval given offline, its time is unproven and it counts as given when the run
         was planned: an approval cannot precede its plan, so it never outranks a later decision #}
      {% set proven = ' (recorded when approved' in (row['detail'] or '') %}
      {% do run.update({'approved_by': row['approved_by'], 'approval_proven': proven,
                        'approved_at': at if proven else (run.planned_at or at),
                        'approved_detail': row['detail']}) %}
    {% elif event == 'approval_given' and row['recorded_by'] not in run.logins %}
      {% do run.logins.append(row['recorded_by']) %}
    {% elif event == 'approval_revoked' and row['recorded_by'] in run.logins and not run.get('wrote') %}
      {% do run.logins.remove(row['recorded_by']) %}
    {% elif event == 'cleaned' %}
      {% set detail = (fromjson(row['detail']) if (row['detail'] or '').startswith('{') else none) or {} %}
      {% do run.update({'cleaned': {'at': at, 'by': detail.get('by')}}) %}
    {% elif event == 'full_refresh' %}
      {% for known in ledger.writes.keys() | list %}
        {% do ledger.writes[known].append({'seq': seq, 'at': at, 'run_id': row['run_id'], 'event': 'full_refresh',
            'approved_by': none, 'by': row['approved_by'], 'fingerprint': none, 'reason': row['detail']}) %}
        {% do ledger.holders[known].clear() %}
      {% endfor %}
    {% elif value is not none and (values is none or value in ledger.writes) and (event in ('partition_replaced', 'rolled_back')
            or (event == 'partition_skipped' and row['outcome'] == 'already equal to the approval')) %}
      {#
        replaced: the run wrote its rows there (detail: its backup); adopted: its apply found the partition already
        holding its approved rows and took it as its own (no write, no backup: another run wrote the same rows, or
        an interrupted attempt of its own did); restored: its rollback put the rows from before back; released: its
        rollback found nothing of its own to undo there (adopted only). The last two take the run off the holders.
      #}
      {% set kind = {'partition_replaced': 'replaced', 'partition_skipped': 'adopted'}.get(event)
          or ('restored' if row['outcome'] == 'restored' else 'released' if row['outcome'] == 'released' else none) %}
      {% if kind %}
        {% set writes = ledger.writes.setdefault(value, []) %}
        {% set holders = ledger.holders.setdefault(value, []) %}
        {% do writes.append({'seq': seq, 'at': at, 'instant': row['recorded_at'] | string, 'run_id': row['run_id'], 'event': kind,
            'approved_by': row['approved_by'], 'by': (row['detail'] or '')[3:] if event == 'rolled_back' and (row['detail'] or '').startswith('by ') else none,
            'fingerprint': fromjson(row['fingerprint_after']) if row['fingerprint_after'] else none, 'reason': none,
            'backup': row['detail'] if kind == 'replaced' else none}) %}
        {% if row['run_id'] in holders %}{% do holders.remove(row['run_id']) %}{% endif %}
        {% if kind in ('replaced', 'adopted') %}{% do holders.append(row['run_id']) %}{% do run.update({'wrote': true}) %}{% endif %}
      {% endif %}
    {% endif %}
  {% endfor %}
  {% do dbt_backfill._commit() %}
  {{ return(dbt_backfill._with_approval_proof(ledger)) }}
{% endmacro %}

{# How each run's approval was proven (_approval_proof), on the run and on every write it made: `partitions` and the
   notes that name a run say it with the run. #}
{% macro _with_approval_proof(ledger) %}
  {% for run in ledger.runs.values() %}
    {% do run.update({'approval_proof': dbt_backfill._approval_proof(run.approved_detail, run.logins)}) %}
  {% endfor %}
  {% for writes in ledger.writes.values() %}
    {% for write in writes if write.run_id in ledger.runs %}
      {% do write.update({'approval_proof': ledger.runs[write.run_id].approval_proof}) %}
    {% endfor %}
  {% endfor %}
  {{ return(ledger) }}
{% endmacro %}
