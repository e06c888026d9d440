{#
  The canonical fingerprint of named partitions of a relation, read-only towards it: what `verify` compares with
  the approved packet. Given `expected` fingerprints (one per partition), it also writes the audit row
  (verified, or verify_mismatch naming the partitions), and with refuse_on_mismatch a mismatch is refused (the
  pure-dbt verify, whose only outcome is dbt's exit status). With `commitment`, each partition's commitment_digest
  is added (bench P1 measures it). With `ledger`, each partition's `ledger` entry (_ledger_entry: its last
  recorded writer and whether it still holds what that writer wrote) and `own_last`, the run's own last write there. With `relations` (refs), it says which of them exist (`present`): status reads
  whether the stages an apply needs and the backups a rollback needs are still there.
  Emits `fingerprints`: {relation, partitions: [{value, fingerprint, commitment?}], present}.
#}
{% macro fingerprint_partitions(target, partition_by, business_key, material_columns, partitions, additive=[],
                                expected=none, run_id=none, model=none, refuse_on_mismatch=false, commitment=false,
                                relations=[], ledger=false) %}
  {% do dbt_backfill.pin_session() %}
  {% set relation = dbt_backfill._target_relation(target) %}
  {% set scope = dbt_backfill._backfill_scope(relation, partition_by, business_key, additive, material_columns) %}
  {% set fingerprints = [] %}
  {% set read = dbt_backfill._fingerprints_in_scope(relation, scope, partitions) %}
  {% for value in partitions %}
    {% do fingerprints.append({'value': value, 'fingerprint': read[value | string]}) %}
  {% endfor %}
  {% if commitment %}
    {% set items = [] %}
    {% for item in fingerprints %}
      {% do items.append({'relation': relation, 'row_count': item.fingerprint.row_count, 'value': item.value}) %}
    {% endfor %}
    {% for committed in dbt_backfill._commitments_in_scope(items, scope) %}
      {% do fingerprints[loop.index0].update({'commitment': committed}) %}
    {% endfor %}
  {% endif %}
  {% if ledger %}
    {# who wrote each partition last, as the audit trail records it (_partition_ledger), and this run's own last write #}
    {% set history = dbt_backfill._partition_ledger(relation, partitions | map('string') | list) %}
    {% for item in fingerprints %}
      {% set entry = dbt_backfill._ledger_entry(history, item.value | string, item.fingerprint) %}
      {% do entry.pop('fingerprint') %}
      {# a run whose backup there is gone (clean --drop-backups) has no rollback left: none, and the backup's name #}
      {% set standing = dbt_backfill._standing(history.writes[item.value | string], entry.run_id) if entry.run_id else none %}
      {% set gone = dbt_backfill._backup_gone(standing) if standing else none %}
      {% do entry.update({'rollback_command': dbt_backfill._rollback_command(history, entry.run_id)
                                              if entry.run_id and not gone else none, 'backup_gone': gone,
                          'cleaned': (history.runs.get(entry.run_id) or {}).get('cleaned') if gone else none}) %}
      {% do item.update({'ledger': entry, 'own_last': dbt_backfill._standing(history.writes[item.value | string], run_id)}) %}
    {% endfor %}
  {% endif %}
  {% if expected is not none %}
    {% set mismatched = [] %}
    {% for item in fingerprints %}
      {% if not dbt_backfill._same_fingerprint(item.fingerprint, expected[loop.index0]) %}{% do mismatched.append(item.value) %}{% endif %}
    {% endfor %}
    {% do dbt_backfill._ensure_audit_table(relation) %}
    {% do dbt_backfill.record_audit_event(relation, 'verify_mismatch' if mismatched else 'verified', run_id, {'model': model,
        'fingerprint_after': fingerprints, 'outcome': ('mismatch: ' ~ mismatched | join(', ')) if mismatched else 'all equal'}) %}
    {% do dbt_backfill._commit() %}
    {% if mismatched and refuse_on_mismatch %}
      {% do dbt_backfill._refuse('verify_mismatch', 'partition(s) ' ~ mismatched | join(', ') ~ ' no longer equal the approved '
          ~ 'fingerprints. verify changes nothing.', {'partitions': mismatched}) %}
    {% endif %}
  {% endif %}
  {% set present = [] %}
  {% for ref in relations if adapter.get_relation(database=ref.get('database'), schema=ref.schema, identifier=ref.identifier) is not none %}
    {% do present.append(ref) %}
  {% endfor %}
  {% do dbt_backfill._emit_result('fingerprints', {'relation': dbt_backfill._relation_ref(relation), 'partitions': fingerprints,
                                                   'present': present}) %}
  {{ return({'relation': dbt_backfill._relation_name(relation), 'partitions': fingerprints}) }}
{% endmacro %}
