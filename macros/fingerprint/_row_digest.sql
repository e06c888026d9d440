{# _row_digest(canonical fields): the SHA-256 of the canonical row: the row digest of the canonical fingerprint and
   of the commitment. #}
{% macro _row_digest(fields) %}
  {{ return(dbt_backfill.sha256_hex(dbt_backfill._canonical_row(fields))) }}
{% endmacro %}
