{# _canonical_row(canonical fields): a row's canonical fields joined by '|' — the text the fingerprint and the
   commitment digest, and the change summary compares. #}
{% macro _canonical_row(fields) %}
  {{ return(fields | join(" || '|' || ")) }}
{% endmacro %}

{# _row_digest(canonical fields): the SHA-256 of the canonical row: the row digest of the canonical fingerprint and
   of the commitment. #}
{% macro _row_digest(fields) %}
  {{ return(dbt_backfill.sha256_hex(dbt_backfill._canonical_row(fields))) }}
{% endmacro %}

{# _rows_summary(row digest column): '<rows>:<exact sum of the digests' first 15 hex digits>', an aggregate: how the
   canonical fingerprint summarises a partition. #}
{% macro _rows_summary(row_digest_column) %}
  {% set string_type = dbt.type_string() %}
  {{ return("cast(count(*) as " ~ string_type ~ ") || ':' || cast(coalesce(sum("
      ~ dbt_backfill.hex_to_integer('substr(' ~ row_digest_column ~ ', 1, 15)') ~ "), 0) as " ~ string_type ~ ")") }}
{% endmacro %}
