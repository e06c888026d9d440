{#
  One row of the audit trail: the table dbt_backfill_audit beside the model's relation (`<model schema>_backfill`),
  or in the dbt_backfill_audit_schema var's schema (_audit_relation), created on first use (_ensure_audit_table).
  Written inside the caller's transaction, so a partition's replacement and its audit row commit or vanish together.
  Values are text (fingerprints as JSON). Events: building_stages, planned (a packet was written), packet_recorded
  (pure dbt), plan_failed, nothing_to_change, approved, source_drift_allowed, partition_replaced, partition_skipped,
  checkpoint, applied, verified, verify_mismatch, rolled_back, refused, cleaned, full_refresh, window_proven (the
  input windows proven over the whole history, or found too narrow: _record_window_proof).
#}
{% macro record_audit_event(target_relation, event, run_id, fields={}) %}
  {% set audit = dbt_backfill._audit_relation(target_relation) %}
  {% do dbt_backfill.refuse_untrusted_audit_table(audit, target_relation, writing=true) %}
  {% set columns = ['recorded_at', 'run_id', 'model', 'target', 'event', 'partition_value', 'packet_sha256',
                    'approved_by', 'fingerprint_before', 'fingerprint_after', 'duration_ms', 'outcome', 'detail'] %}
  {% set given = {'run_id': run_id, 'target': dbt_backfill._relation_name(target_relation), 'event': event} %}
  {% set texts = [] %}
  {% for column in columns[1:] %}
    {% set value = given.get(column, fields.get(column)) %}
    {% do texts.append(none if value is none else (value if value is string else tojson(value))) %}
  {% endfor %}
  {% set values = dbt_backfill._sql_literals(texts) %}
  {% do dbt_backfill._execute('insert into ' ~ audit ~ ' (' ~ columns | join(', ') ~ ') values (current_timestamp, '
                              ~ values | join(', ') ~ ')', fetch=false) %}
{% endmacro %}
