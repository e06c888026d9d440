{# `planned` means a packet exists: the pure-dbt path records it here (record_planned), beside the packet it records
   next; the CLI only after it wrote the packet file (with its SHA-256), so a plan refused in Python is no `planned`
   row. A plan with nothing to change writes no packet, and no row. #}
{% macro _record_planned(plan, target_relation, run_id, model, partitions, record_planned) %}
  {% do dbt_backfill._ensure_audit_table(target_relation) %}
  {% if record_planned and not plan.nothing_to_change %}
    {% do dbt_backfill.record_audit_event(target_relation, 'planned', run_id, {'model': model,
        'fingerprint_after': plan.partitions | map(attribute='builds') | map(attribute='a') | map(attribute='sha256') | list,
        'outcome': plan.review.verdict, 'detail': partitions | join(', ')}) %}
  {% endif %}
  {% do dbt_backfill._commit() %}
{% endmacro %}
