{#
  Test helper (not part of the package): the canonical fingerprint of whole tables, one invocation for many.
  tables: [{schema, identifier, key: [...], additive: [...]}]. Emits `table_fingerprints`: {identifier: fingerprint with its commitment, and source_state when asked}.
#}
{% macro fingerprint_tables(tables, with_source_state=false) %}
  {% do dbt_backfill.pin_session() %}
  {% set fingerprints = {} %}
  {% for table in tables %}
    {% set relation = adapter.get_relation(database=target.database, schema=table.schema, identifier=table.identifier) %}
    {% set columns = dbt_backfill._columns(relation, dbt_backfill._column_names(relation), 'column') %}
    {% set fingerprint = dbt_backfill.fingerprint_relation(
        relation, columns,
        dbt_backfill._columns(relation, table.get('key', []), 'business_key'),
        dbt_backfill._columns(relation, table.get('additive', []), 'additive'),
        count_duplicate_keys=true) %}
    {% do fingerprints.update({table.identifier: dbt_backfill._merged(fingerprint, {
        'commitment': dbt_backfill.commitment_digest(relation, columns, row_count=fingerprint.row_count),
        'source_state': dbt_backfill.source_state(relation, columns).state if with_source_state else none})}) %}
  {% endfor %}
  {% do dbt_backfill._emit_result('table_fingerprints', fingerprints) %}
{% endmacro %}
