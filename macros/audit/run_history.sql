{#
  The audit trail of one run, oldest first, read from the audit table beside the run's target (where apply,
  rollback and clean wrote it: _audit_relation, custom schemas included). Only reads. Emits `run_history`:
  {audit, events: [{recorded_at, event, partition_value, approved_by, outcome, detail}]}. Called by
  `dbt-backfill verify`, which says "rolled back at ..." from it rather than raising a mismatch alarm.
#}
{% macro run_history(target, run_id) %}
  {% do dbt_backfill.refuse_unsafe_search_path() %}
  {% set target_relation = dbt_backfill._relation(target) %}
  {% set audit = dbt_backfill._audit_relation(target_relation) %}
  {% set events = [] %}
  {% if adapter.get_relation(database=audit.database, schema=audit.schema, identifier=audit.identifier) is not none %}
    {% set table = dbt_backfill._execute('select cast(recorded_at as ' ~ dbt.type_string() ~ ') as recorded_at, event, '
        ~ 'partition_value, approved_by, outcome, detail from ' ~ audit ~ ' where run_id = ' ~ dbt_backfill._sql_literal(run_id)
        ~ ' and ' ~ dbt_backfill._trusted_writer(audit, target_relation) ~ ' order by recorded_at') %}
    {% for row in table.rows %}
      {% do events.append({'recorded_at': row['recorded_at'], 'event': row['event'], 'partition_value': row['partition_value'],
                           'approved_by': row['approved_by'], 'outcome': row['outcome'], 'detail': row['detail']}) %}
    {% endfor %}
    {% do dbt_backfill._commit() %}
  {% endif %}
  {% do dbt_backfill._emit_result('run_history', {'audit': dbt_backfill._relation_name(audit), 'events': events}) %}
{% endmacro %}
