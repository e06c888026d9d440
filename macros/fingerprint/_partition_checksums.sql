{#
  Each partition's rows and an order-free checksum of them, in one read grouped by the partition column:
  {partition text: "<rows>#<checksum>"} for the partitions `where` selects. The checksum is the sum of the engine's
  own 64-bit hash of each row (_row_hash: each column hashed by its type; a type the engine cannot hash read as text
  in the pinned session). About five times cheaper than the canonical fingerprint (2.0-2.5 s against 12 s over
  10M rows on PostgreSQL 15; docs/DECISIONS.md row 131), and comparable only with a checksum the same engine made:
  what a stale scan holds a vouch against (_check_vouch_basis), never evidence in a packet or across engines. A
  change that leaves it equal takes a 64-bit collision of the sum.
#}
{% macro _partition_checksums(relation, columns, partition_column, where) %}
  {% set family = dbt_backfill._type_family(partition_column.data_type) %}
  {% set part = adapter.quote(partition_column.name) %}
  {% set sql %}
    select {{ part }} as bf_partition, count(*) as bf_rows,
           cast(sum({{ adapter.dispatch('_row_hash', 'dbt_backfill')(columns) }}) as {{ dbt.type_string() }}) as bf_sum
    from {{ relation }}
    where {{ where }}
    group by {{ part }}
  {% endset %}
  {% set found = {} %}
  {% for row in dbt_backfill._execute(sql).rows %}
    {% set value = 'NULL' if row['bf_partition'] is none else dbt_backfill._partition_text(row['bf_partition'], family) %}
    {% do found.update({value: (row['bf_rows'] | string) ~ '#' ~ row['bf_sum']}) %}
  {% endfor %}
  {{ return(found) }}
{% endmacro %}

{# One row's 64-bit hash, from the engine's own hash of each column. Stale scans run on PostgreSQL and DuckDB. #}
{% macro default___row_hash(columns) %}
  {% do dbt_backfill._fail('a partition checksum is not implemented for ' ~ adapter.type() ~ '. Nothing was changed.') %}
{% endmacro %}

{# hash_record_extended hashes each field with its type's hash function (1.0 and 1.00, -0.0 and 0.0 alike, as the
   canonical text has them); json, xml, geometric and other types without one are hashed as their text #}
{% macro postgres___row_hash(columns) %}
  {% set fields = [] %}
  {% for column in columns %}
    {% set hashable = dbt_backfill._type_family(column.data_type) in ('text', 'integer', 'decimal', 'boolean', 'date',
        'timestamp', 'timestamptz', 'uuid', 'float') %}
    {% do fields.append(adapter.quote(column.name) if hashable else 'cast(' ~ adapter.quote(column.name) ~ ' as text)') %}
  {% endfor %}
  {{ return('hash_record_extended(row(' ~ fields | join(', ') ~ '), 0)') }}
{% endmacro %}

{# DuckDB's hash() takes the columns as they are, any type; its sum of UBIGINTs is a HUGEINT #}
{% macro duckdb___row_hash(columns) %}
  {% set fields = [] %}
  {% for column in columns %}{% do fields.append(adapter.quote(column.name)) %}{% endfor %}
  {{ return('hash(' ~ fields | join(', ') ~ ')') }}
{% endmacro %}
