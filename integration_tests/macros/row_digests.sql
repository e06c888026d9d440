{#
  Test helper (not part of the package): every row's digest (SHA-256 of its canonical fields, columns by name) and
  the whole table's fingerprint, for many tables in one invocation. tables: [{schema, identifier}], each with an
  integer column `k` naming the case. Emits `row_digests`: {identifier: {rows: [[k, digest]], fingerprint}}.
#}
{% macro row_digests(tables) %}
  {% do dbt_backfill.pin_session() %}
  {% set found = {} %}
  {% for table in tables %}
    {% set relation = adapter.get_relation(database=target.database, schema=table.schema, identifier=table.identifier) %}
    {% set columns = dbt_backfill._columns(relation, dbt_backfill._column_names(relation), 'column') %}
    {% set fields = [] %}
    {% for column in columns %}{% do fields.append(dbt_backfill.canonical_text(column.name, column.data_type)) %}{% endfor %}
    {% set digests = [] %}
    {% for row in dbt_backfill._execute('select cast(k as ' ~ dbt.type_string() ~ ') as k, '
        ~ dbt_backfill._row_digest(fields) ~ ' as row_digest from ' ~ relation).rows %}
      {% do digests.append([row['k'] | int, row['row_digest']]) %}
    {% endfor %}
    {% set types = {} %}
    {% for column in columns %}{% do types.update({column.name: column.data_type}) %}{% endfor %}
    {% do found.update({table.identifier: {'rows': digests, 'types': types,
        'fingerprint': dbt_backfill.fingerprint_relation(relation, columns)}}) %}
  {% endfor %}
  {% do dbt_backfill._emit_result('row_digests', found) %}
{% endmacro %}
