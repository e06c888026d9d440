{#
  Drop a run's stage and backup relations. While a rollback is still possible — a backup exists and holds other
  rows than its partition holds now — the backups are kept and the call is refused, unless drop_backups is true.
  Decided from the two relations themselves, never from the packet's target_before: a packet whose target_before was
  rewritten to the applied rows (the pure-dbt packet is a row of the audit table) must not make a needed backup look
  spare. With list_only the same checks run and the relations that would be dropped are returned, none dropped.
  Returns the relations and, each as 'directory <location>', the directories deleted (or that would be: Spark).
  The session is pinned, then the packet checked (_check_packet): only relations named for this run, in its stage schema, are
  dropped, each as a table and without CASCADE (on PostgreSQL a view someone built on a stage makes the drop
  fail, it is not dropped with it). Takes the table's backfill lock, as apply and rollback do: a clean never runs beside them.
  On Spark a run's written copies and backups name directories (see _rows_to_write, backup_partition): each one
  the target no longer reads is deleted with its table (_release_storage), and the audit row names them.
  The audit row (`cleaned`) names what was dropped and `cleaned_by` (the CLI: --by, else "OS user <name>"). Emits
  `cleaned`: {run_id, dropped, deleted_directories, made_impossible: the earlier runs' rollbacks this clean makes
  impossible, in words (_rollbacks_made_impossible)}.
#}
{% macro clean_run(run_id, model, target, partition_by, business_key, material_columns, partitions, additive=[],
                   drop_backups=false, packet_sha256=none, cleaned_by=none, list_only=false) %}
  {# pinned first: the packet's checks read the audit table through the session's search_path too #}
  {% do dbt_backfill.pin_session() %}
  {% do dbt_backfill._check_packet(model, target, run_id, partitions, packet_sha256, 'Nothing was dropped.') %}
  {% set target_relation = dbt_backfill._target_relation(target) %}
  {% do dbt_backfill.acquire_target_lock(target_relation) %}
  {% set scope = dbt_backfill._backfill_scope(target_relation, partition_by, business_key, additive, material_columns) %}
  {% do scope.update({'layout': dbt_backfill._target_layout(target_relation)}) %}
  {# the partitions' history: a run rolled back already needs no backup; one a later run wrote over can be rolled
     back only after that run is #}
  {% set ledger = dbt_backfill._partition_ledger(target_relation, partitions | map(attribute='value') | list) %}
  {% do dbt_backfill._refuse_needed_backups(run_id, partitions, ledger, target_relation, scope, drop_backups) %}
  {% set made_impossible = dbt_backfill._rollbacks_made_impossible(run_id, partitions, ledger, model) %}
  {% if list_only %}
    {{ return(dbt_backfill._run_relations_listed(partitions, target_relation, scope)) }}
  {% endif %}
  {# the drops and their audit row in one transaction (where the engine has them): a drop the database refuses
     (a view someone built on a stage) leaves every relation, and the trail, as they were #}
  {% do dbt_backfill._ensure_audit_table(target_relation) %}
  {% do dbt_backfill._step('dropping the relations of run ' ~ run_id, 'the database refused to drop one of the relations '
      ~ 'of run ' ~ run_id ~ ' (its error is below: a view built on a stage, say).') %}
  {% do dbt_backfill.begin_transaction() %}
  {% do dbt_backfill.refuse_unsafe_search_path() %}  {# checked again inside the transaction that drops #}
  {% set dropped = [] %}
  {% set deleted = [] %}
  {% for partition in partitions %}
    {% for ref in dbt_backfill._run_refs(partition) %}
      {% set relation = adapter.get_relation(database=ref.get('database'), schema=ref.schema, identifier=ref.identifier) %}
      {% if relation is not none %}
        {% do deleted.extend(dbt_backfill._release_storage(relation, target_relation,
            dbt_backfill._write_unit(scope, partition.value)).deleted) %}
        {% do dbt_backfill._forget_columns(relation) %}
        {% do dbt_backfill._execute('drop table ' ~ relation, fetch=false) %}
        {% do dropped.append(dbt_backfill._relation_name(relation)) %}
      {% endif %}
    {% endfor %}
  {% endfor %}
  {# detail {dropped, by}: a rollback that finds a backup gone says when, and by whom, clean dropped it #}
  {% do dbt_backfill.record_audit_event(target_relation, 'cleaned', run_id, {'model': model,
      'outcome': 'dropped ' ~ dropped | length ~ ' relations' ~ (' (backups included: --drop-backups)' if drop_backups else '')
                 ~ ((', deleted ' ~ deleted | length ~ ' directories') if deleted else ''),
      'detail': {'dropped': dropped, 'deleted_directories': deleted, 'by': cleaned_by}}) %}
  {% do dbt_backfill._commit() %}
  {% for said in made_impossible %}{% do log('Note: ' ~ said ~ '.', info=true) %}{% endfor %}
  {% do dbt_backfill._emit_result('cleaned', {'run_id': run_id, 'dropped': dropped, 'deleted_directories': deleted,
                                              'made_impossible': made_impossible}) %}
  {% set returned = dropped[:] %}
  {% for directory in deleted %}{% do returned.append('directory ' ~ directory) %}{% endfor %}
  {{ return(returned) }}
{% endmacro %}

{#
  Each backup, read now, against its partition now: spare (the same rows: nothing to roll back), the rows from
  before the apply (a rollback can restore them), or neither (changed since the apply: on Spark, a later static
  overwrite of the partition deletes the directory its backup names) — the last two are kept, and said apart, and
  the clean refused (`rollback_possible`) unless the caller drops the backups anyway (drop_backups: read all the
  same).
#}
{% macro _refuse_needed_backups(run_id, partitions, ledger, target_relation, scope, drop_backups) %}
  {% set rollback_possible = [] %}
  {% set kept_unsure = [] %}
  {% set after_later, later_commands = [], [] %}
  {% for partition in partitions %}
    {% set backup = adapter.get_relation(database=partition.backup.get('database'), schema=partition.backup.schema,
                                         identifier=partition.backup.identifier) %}
    {% set holders = ledger.holders[partition.value] %}
    {% set own = ledger.writes[partition.value] | selectattr('run_id', 'equalto', run_id) | list %}
    {# a backup that cannot be read safely (a view, writable by others, code on read) is neither read nor dropped #}
    {% set unsafe = dbt_backfill._unsafe_to_read(backup, target_relation) if backup is not none else none %}
    {% if backup is not none and unsafe %}
      {% do kept_unsure.append(partition.value ~ ' (its backup is ' ~ unsafe | join(', ') ~ ': not read)') %}
    {% elif backup is not none and own and run_id not in holders %}
      {# this run's replacement there was rolled back: nothing of it is left to undo, its backup is spare #}
    {% elif backup is not none and run_id in holders and holders[-1] != run_id %}
      {% do after_later.append(partition.value ~ ' (run ' ~ holders[-1] ~ ' wrote it after this run)') %}
      {% do later_commands.append('`' ~ dbt_backfill._rollback_command(ledger, holders[-1]) ~ '`') %}
    {% elif backup is not none %}
      {% set in_backup = dbt_backfill._backup_fingerprint(backup, target_relation, scope, partition.value) %}
      {% if dbt_backfill._same_fingerprint(in_backup, dbt_backfill._fingerprint_in_scope(target_relation, scope, partition.value, true)) %}
      {% elif dbt_backfill._same_fingerprint(in_backup, partition.target_before) %}
        {% do rollback_possible.append(partition.value) %}
      {% else %}
        {% do kept_unsure.append(partition.value ~ ' (its backup holds neither the partition\'s rows now nor the rows '
            ~ 'the plan found: ' ~ in_backup.row_count ~ ' rows, sha256 ' ~ in_backup.sha256[:12] ~ '…; it changed after '
            ~ 'the apply, so a rollback would refuse it)') %}
      {% endif %}
    {% endif %}
  {% endfor %}
  {% if (rollback_possible or after_later or kept_unsure) and not drop_backups %}
    {% set said = [] %}
    {% if rollback_possible %}
      {% do said.append('partition(s) ' ~ rollback_possible | join(', ') ~ ' can still be rolled back from their backups') %}
    {% endif %}
    {% if after_later %}
      {% do said.append('partition(s) ' ~ after_later | join(', ') ~ ' can be rolled back from their backups only after '
          ~ later_commands | unique | join(' and ') ~ ' has run') %}
    {% endif %}
    {% if kept_unsure %}
      {% do said.append('the backups of ' ~ kept_unsure | join('; ') ~ ' are kept unread or unlike the rows from before') %}
    {% endif %}
    {% do dbt_backfill._refuse('rollback_possible', said | join('; ')
        ~ ': nothing was dropped. Pass --drop-backups (pure dbt: drop_backups: true) to drop them anyway (that rollback '
        ~ 'is then gone). The target is unchanged.',
        {'partitions': rollback_possible, 'after_later_runs': after_later, 'kept': kept_unsure}) %}
  {% endif %}
{% endmacro %}

{# With list_only: the run's relations that exist, and the directories a drop would delete (Spark), none dropped. #}
{% macro _run_relations_listed(partitions, target_relation, scope) %}
  {% set listed = [] %}
  {% for partition in partitions %}
    {% for ref in dbt_backfill._run_refs(partition) %}
      {% set relation = adapter.get_relation(database=ref.get('database'), schema=ref.schema, identifier=ref.identifier) %}
      {% if relation is not none %}
        {% do listed.append(dbt_backfill._relation_name(relation)) %}
        {% for directory in dbt_backfill._release_storage(relation, target_relation,
              dbt_backfill._write_unit(scope, partition.value), list_only=true).deleted %}
          {% do listed.append('directory ' ~ directory) %}
        {% endfor %}
      {% endif %}
    {% endfor %}
  {% endfor %}
  {% do dbt_backfill._commit() %}
  {{ return(listed) }}
{% endmacro %}

{# The relations a run made for one partition of its packet: builds a and b, the written copy (`<build a>_w`: Spark
   keeps it, see _rows_to_write) and the backup. #}
{% macro _run_refs(partition) %}
  {{ return([partition.stage, partition.stage_b, dbt_backfill._merged(partition.stage, {'identifier': partition.stage.identifier ~ '_w'}),
             partition.backup]) }}
{% endmacro %}
