{#
  The canonical fingerprint of a relation, or of the rows of it that `where` selects (one partition).
  Algorithm dbt_backfill/v3 (v2 with every type's text unambiguous: see canonical_text):

    row digest       = sha256(canonical text of the material columns, by name order, joined by '|')
    row checksum     = the row digest's first 15 hex digits as an integer (60 bits)
    partition digest = sha256('<row count>:<exact sum of the row checksums>')

  Same logical rows -> same sha256, whatever the physical order, column order or storage: a sum does not depend
  on order, and it counts a duplicated row twice. It is one aggregate over one scan: no sort, no per-group state,
  so the database runs it with parallel workers, never spills, and keeps one number per worker whatever the
  partition size. v1 (sha256 of the ordered row digests, per key bucket) sorted every row and ran at 11x the
  COPY floor; docs/DECISIONS.md has the measurements and what the change gives up: a sum of hashes detects any
  accidental difference (a miss needs a 60-bit coincidence, about 1 in 10^18), but unlike an ordered digest it is
  not a commitment against someone who crafts rows to collide on purpose.

  Returns {row_count, null_keys, duplicate_keys, totals: {column: exact decimal text}, sha256, algorithm}; a float
  column's total is the exact sum of the decimals its values' texts spell (_additive_value), whatever the order.
  duplicate_keys is counted only when `count_duplicate_keys` (a grouping by key: the plan's check of a build);
  elsewhere it is none, since equal fingerprints already imply equal keys.
  The engine-specific parts are the leaves canonical_text, sha256_hex and hex_to_integer; the composition is
  plain SQL, and the row digest is referenced once, so no engine evaluates the hash twice.
#}
{% macro fingerprint_relation(relation, columns, key_columns=[], additive_columns=[], where=none, count_duplicate_keys=false) %}
  {{ return(adapter.dispatch('fingerprint_relation', 'dbt_backfill')(relation, columns, key_columns, additive_columns, where, count_duplicate_keys)) }}
{% endmacro %}

{% macro default__fingerprint_relation(relation, columns, key_columns, additive_columns, where, count_duplicate_keys) %}
  {% set row = dbt_backfill._execute(dbt_backfill._fingerprint_sql(relation, columns, key_columns, additive_columns, where)).rows[0] %}
  {% set duplicate_keys = none %}
  {% if count_duplicate_keys and key_columns %}
    {% set duplicate_keys = dbt_backfill._execute('select cast(count(*) as ' ~ dbt.type_string() ~ ') as duplicate_keys from ('
        ~ dbt_backfill._duplicate_keys_sql(relation, key_columns, where) ~ ') bf_duplicated').rows[0]['duplicate_keys'] | int %}
  {% elif count_duplicate_keys %}
    {% set duplicate_keys = 0 %}
  {% endif %}
  {{ return(dbt_backfill._fingerprint_of_row(row, columns, additive_columns, duplicate_keys)) }}
{% endmacro %}
