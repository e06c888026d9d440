{#
  The partition ledger of a model (`dbt-backfill partitions MODEL`): for each partition, who wrote it last as the
  audit trail records it (a run's replacement or restore, a full refresh, or nothing recorded: the live job or an
  unknown writer), when, the rows and SHA-256 it holds now, and whether it still holds what that writer wrote.
  meta.backfill is read as a plan reads it (_backfill_spec).
  The writer named is the run whose rows the partition holds as the trail tells it (the last to replace it, or to
  find it already holding its approved rows), else the last write (a rollback, a full refresh). Only reads.
  Partitions: the named ones (values and inclusive ranges, as plan takes them), else every partition
  the audit trail records a write of. Logs one line per partition; emits `ledger`: {model, target, partitions:
  [{value, rows, sha256, writer, run_id, event, at, approved_by, by, holds_writer, holders, said}]}.

  dbt run-operation dbt_backfill.partition_ledger --args '{model: fct_trips, partitions: 2026-03-01..2026-03-03}'
#}
{% macro partition_ledger(model, partitions=none) %}
  {% if not execute %}{{ return('') }}{% endif %}
  {% do dbt_backfill.pin_session() %}
  {% set node = dbt_backfill._model_node(model) %}
  {% set meta = (node.config.meta or {}).get('backfill') or (node.meta or {}).get('backfill') %}
  {% if not meta or not meta.get('partition_by') or not meta.get('business_key') %}
    {% do dbt_backfill._fail(model ~ ' declares no meta.backfill with partition_by and business_key: it has no '
        ~ 'partitions dbt-backfill writes. Nothing was read.') %}
  {% endif %}
  {% set spec = dbt_backfill._backfill_spec(model, meta) %}
  {% set target_relation = dbt_backfill._target_relation({'database': node.database, 'schema': node.schema,
                                                          'identifier': node.alias or node.name}) %}
  {% set scope = dbt_backfill._ledger_scope(target_relation, spec) %}
  {% set named = none %}
  {% if partitions is not none %}
    {# YAML reads one date or number alone as that value, not a list #}
    {% set items = partitions.split(',') if partitions is string
                   else partitions if partitions is iterable and partitions is not mapping else [partitions] %}
    {% set named = dbt_backfill._expanded_partitions(items | map('string') | list) %}
  {% endif %}
  {% set ledger = dbt_backfill._partition_ledger(target_relation, named) %}
  {% set family = dbt_backfill._type_family(scope.partition_column.data_type) %}
  {% set order = {} %}
  {% for value in (named if named is not none else ledger.writes.keys()) %}
    {% do order.update({value: dbt_backfill._ordering_key(value, family)}) %}
  {% endfor %}
  {% set entries = [] %}
  {% for value in dbt_backfill._by_ordinal(order) %}
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
  {% do dbt_backfill._emit_result('ledger', {'model': model, 'target': dbt_backfill._relation_name(target_relation),
                                             'partitions': entries}) %}
{% endmacro %}

{# The scope a read of the model's partitions fingerprints: its meta.backfill's partition column, business key and
   additive columns, every column of the table but exclude_columns. #}
{% macro _ledger_scope(target_relation, spec) %}
  {% set excluded = dbt_backfill._columns(target_relation, spec.exclude_columns, 'exclude_columns') | map(attribute='name') | list %}
  {% set material = dbt_backfill._column_names(target_relation) | reject('in', excluded) | list %}
  {{ return(dbt_backfill._backfill_scope(target_relation, spec.partition_by, spec.business_key, spec.additive, material)) }}
{% endmacro %}
