{# Record one audit event from the CLI (a refusal decided in Python, an approval seen by apply), committed.
   dbt run-operation dbt_backfill.audit_event --args '{target: {...}, event: refused, run_id: ..., fields: {...}}' #}
{% macro audit_event(target, event, run_id, fields={}) %}
  {% set target_relation = dbt_backfill._relation(target) %}
  {% do dbt_backfill._ensure_audit_table(target_relation) %}
  {% do dbt_backfill.record_audit_event(target_relation, event, run_id, fields) %}
  {% do dbt_backfill._commit() %}
  {% do dbt_backfill._emit_result('recorded', {'event': event}) %}
{% endmacro %}
