{# Recorded before the first stage exists, so a plan that fails, is refused or is killed leaves relations the audit
   trail names: `clean --run` and `clean --orphans` drop them (and only them). #}
{% macro _record_building_stages(target_relation, run_id, model, stage_schema, partitions, expires_at) %}
  {% do dbt_backfill._ensure_audit_table(target_relation) %}
  {% do dbt_backfill.record_audit_event(target_relation, 'building_stages', run_id, {'model': model,
      'detail': {'stage_schema': stage_schema, 'partitions': partitions | length, 'expires_at': expires_at,
                 'at': modules.datetime.datetime.utcnow().replace(microsecond=0).isoformat() ~ '+00:00'}}) %}
  {% do dbt_backfill._commit() %}
{% endmacro %}
