{# One partition of the ledger, with `now` (its fingerprint as read): its last recorded writer and whether it still
   holds what that writer wrote, in words (`said`) and as fields. #}
{% macro _ledger_entry(ledger, value, now) %}
  {% set writes = ledger.writes.get(value) or [] %}
  {# the writer whose rows it holds (the top of its holders), else the last write: a rollback, a full refresh #}
  {% set holders = ledger.holders.get(value) or [] %}
  {% set last = dbt_backfill._standing(writes, holders[-1]) if holders else writes[-1] if writes else none %}
  {% set holds = last is not none and last.fingerprint is not none and dbt_backfill._same_fingerprint(now, last.fingerprint) %}
  {% if last is none %}
    {% set said = 'no dbt-backfill write recorded: as the live job (or another writer) left it' %}
  {% elif last.event == 'full_refresh' %}
    {% set said = dbt_backfill._describe_write(last) %}
  {% elif holds %}
    {% set said = 'as last written: ' ~ dbt_backfill._describe_write(last) %}
  {% else %}
    {% set said = 'changed since ' ~ dbt_backfill._describe_write(last) ~ ': by the live job or another writer' %}
  {% endif %}
  {% set by_run = ledger.runs.get(last.run_id) or {} if last else {} %}
  {{ return({'value': value, 'rows': now.row_count, 'sha256': now.sha256, 'fingerprint': now,
             'writer': ('full refresh' if last.event == 'full_refresh' else 'run') if last else 'unrecorded',
             'run_id': last.run_id if last else none, 'event': last.event if last else none, 'at': last.at if last else none,
             'approved_by': last.approved_by if last else none, 'approval_proof': last.get('approval_proof') if last else none,
             'by': last.by if last else none,
             'packet': by_run.get('packet'), 'holds_writer': holds,
             'holders': ledger.holders.get(value) or [], 'said': said}) }}
{% endmacro %}
