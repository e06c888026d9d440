{# Record one audit event from the CLI (a refusal decided in Python, an approval seen by apply), committed.
   dbt run-operation dbt_backfill.audit_event --args '{target: {...}, event: refused, run_id: ..., fields: {...}}' #}
{% macro audit_event(target, event, run_id, fields={}) %}
  {% set target_relation = dbt_backfill._relation(target) %}
  {% do dbt_backfill._ensure_audit_table(target_relation) %}
  {% if event == 'planned' %}
    {# a run's plan writes one packet: a second record for the run is refused, so no later call vouches for an edit #}
    {% set audit = dbt_backfill._audit_relation(target_relation) %}
    {% set earlier = dbt_backfill._execute('select count(*) from ' ~ audit ~ ' where event = \'planned\' and run_id = '
        ~ dbt_backfill._sql_literal(run_id)).rows[0][0] %}
    {% if earlier | int > 0 %}
      {% do dbt_backfill._refuse('packet_already_written', 'run ' ~ run_id ~ ' already has the packet its plan wrote recorded; '
          ~ 'a second record is refused. The target is unchanged.', {'run_id': run_id}) %}
    {% endif %}
  {% endif %}
  {% do dbt_backfill.record_audit_event(target_relation, event, run_id, fields) %}
  {% do dbt_backfill._commit() %}
  {% do dbt_backfill._emit_result('recorded', {'event': event}) %}
{% endmacro %}
