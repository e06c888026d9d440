{# The two pieces of the canonical fingerprint that the change summary reuses, so both split rows into the same
   buckets and digest a bucket the same way: bucket = first 3 hex digits of sha256(canonical key), bucket digest
   = sha256 of the bucket's row digests in ascending order. #}
{% macro _bucket_of(key_expression) %}
  {{ return('substr(' ~ dbt_backfill.sha256_hex(key_expression) ~ ', 1, 3)') }}
{% endmacro %}

{% macro _bucket_digest(row_digest_column) %}
  {{ return(dbt_backfill.sha256_hex("string_agg(" ~ row_digest_column ~ ", '' order by " ~ row_digest_column ~ ")")) }}
{% endmacro %}
