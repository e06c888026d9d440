{#
  The partition ledger of a model (`dbt-backfill partitions MODEL`): for each partition, who wrote it last as the
  audit trail records it (a run's replacement or restore, a full refresh, or nothing recorded: the live job or an
  unknown writer), when, the rows and SHA-256 it holds now, and whether it still holds what that writer wrote.
  meta.backfill is read as a plan reads it (_backfill_spec).
  The writer named is the run whose rows the partition holds as the trail tells it (the last to replace it, or to
  find it already holding its approved rows), else the last write (a rollback, a full refresh). Only reads.
  Partitions: the named ones (values and inclusive ranges, as plan takes them), else every partition
  the audit trail records a write of. Logs one line per partition; emits `ledger`: {model, target, partitions:
  [{value, rows, sha256, writer, run_id, event, at, approved_by, approval_proof (how the approval was proven:
  _approval_proof; none for a typed name), by, holds_writer, holders, said}]}.

  dbt run-operation dbt_backfill.partition_ledger --args '{model: fct_trips, partitions: 2026-03-01..2026-03-03}'
#}
{% macro partition_ledger(model, partitions=none) %}
  {% if not execute %}{{ return('') }}{% endif %}
  {% do dbt_backfill.pin_session() %}
  {% set published = dbt_backfill._published_model(model) %}
  {% set target_relation, scope = published.relation, published.scope %}
  {% set named = dbt_backfill._named_partition_values(partitions, scope.partition_column.name, target_relation) %}
  {% set ledger = dbt_backfill._partition_ledger(target_relation, named) %}
  {% set family = dbt_backfill._type_family(scope.partition_column.data_type) %}
  {% set entries = [] %}
  {% for value in dbt_backfill._in_order(named if named is not none else ledger.writes.keys(), family) %}
    {% set now = dbt_backfill._fingerprint_in_scope(target_relation, scope, value, true) %}
    {% set entry = dbt_backfill._ledger_entry(ledger, value, now) %}
    {% do entries.append(entry) %}
  {% endfor %}
  {% do dbt_backfill._commit() %}
  {% do log(model ~ ' (' ~ dbt_backfill._relation_name(target_relation) ~ '): ' ~ entries | length ~ ' partition(s), '
      ~ ('as named' if named is not none else 'every partition the audit trail records a write of') ~ ':', info=true) %}
  {% for entry in entries %}
    {% do log('  ' ~ entry.value ~ '  ' ~ entry.rows ~ ' row(s)  sha256 ' ~ entry.sha256[:12] ~ '…  ' ~ entry.said, info=true) %}
  {% endfor %}
  {# read-only: with no audit table it says so (as history does) and makes none #}
  {% set audit = dbt_backfill._audit_relation(target_relation) %}
  {% set missing = adapter.get_relation(database=audit.database, schema=audit.schema, identifier=audit.identifier) is none %}
  {% if missing %}
    {% do log('No audit table (' ~ dbt_backfill._relation_name(audit) ~ '): nothing is recorded for ' ~ model
        ~ ' (nothing was planned, or the table was dropped).', info=true) %}
  {% endif %}
  {% do dbt_backfill._emit_result('ledger', {'model': model, 'target': dbt_backfill._relation_name(target_relation),
      'partitions': entries, 'no_audit_table': dbt_backfill._relation_name(audit) if missing else none}) %}
{% endmacro %}
