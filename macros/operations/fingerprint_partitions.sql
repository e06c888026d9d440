{#
  The canonical fingerprint of named partitions of a relation, read-only: what `verify` compares with the
  approved packet. Emits `fingerprints`: [{value, fingerprint}].
#}
{% macro fingerprint_partitions(target, partition_by, business_key, material_columns, partitions, additive=[]) %}
  {% do dbt_backfill.pin_session() %}
  {% set relation = dbt_backfill._target_relation(target) %}
  {% set scope = dbt_backfill._backfill_scope(relation, partition_by, business_key, additive, material_columns) %}
  {% set fingerprints = [] %}
  {% for value in partitions %}
    {% do fingerprints.append({'value': value, 'fingerprint': dbt_backfill._fingerprint_in_scope(relation, scope, value, true)}) %}
  {% endfor %}
  {% do dbt_backfill._emit_result('fingerprints', {'relation': dbt_backfill._relation_ref(relation), 'partitions': fingerprints}) %}
{% endmacro %}
