{#
  One row's 64-bit hash as SQL, from the engine's own hash of each column (a type the engine cannot hash read as text
  in the pinned session), then mixed once more as a whole: a stale scan's checksum is a sum of these
  (_partition_checksums), and PostgreSQL's record hash is linear in each field's hash (h*31 + field), so its plain
  sum would not change when a column's values are swapped between two rows of a partition (found by an attack on
  issue 54's change); a second, non-linear hash of the row's hash makes such a swap change the sum. Stale scans run
  on PostgreSQL and DuckDB.
#}
{% macro _row_hash(columns) %}
  {{ return(adapter.dispatch('_row_hash', 'dbt_backfill')(columns)) }}
{% endmacro %}

{% macro default___row_hash(columns) %}
  {% do dbt_backfill._fail('a partition checksum is not implemented for ' ~ adapter.type() ~ '. Nothing was changed.') %}
{% endmacro %}

{# hash_record_extended hashes each field with its type's hash function (1.0 and 1.00, -0.0 and 0.0 alike, as the
   canonical text has them); json, xml, geometric and other types without one are hashed as their text;
   hashint8extended mixes the result (Jenkins' lookup3 over its bytes) #}
{% macro postgres___row_hash(columns) %}
  {% set fields = [] %}
  {% for column in columns %}
    {% set hashable = dbt_backfill._type_family(column.data_type) in ('text', 'integer', 'decimal', 'boolean', 'date',
        'timestamp', 'timestamptz', 'uuid', 'float') %}
    {% do fields.append(adapter.quote(column.name) if hashable else 'cast(' ~ adapter.quote(column.name) ~ ' as text)') %}
  {% endfor %}
  {{ return('hashint8extended(hash_record_extended(row(' ~ fields | join(', ') ~ '), 0), 0)') }}
{% endmacro %}

{# DuckDB's hash() takes the columns as they are, any type, and combines them; hashing that result again mixes it
   as a whole. Its sum of UBIGINTs is a HUGEINT #}
{% macro duckdb___row_hash(columns) %}
  {% set fields = [] %}
  {% for column in columns %}{% do fields.append(adapter.quote(column.name)) %}{% endfor %}
  {{ return('hash(hash(' ~ fields | join(', ') ~ '))') }}
{% endmacro %}
