{# The pieces of the canonical fingerprint that the change summary reuses, so a bucket there is summarised exactly
   as a partition is here:
   _rows_summary(row digest column) = '<rows>:<exact sum of the digests' first 15 hex digits>' (an aggregate);
   _bucket_of(key expression)       = first 3 hex digits of sha256(canonical key), 4,096 buckets. #}
{% macro _rows_summary(row_digest_column) %}
  {% set string_type = dbt.type_string() %}
  {{ return("cast(count(*) as " ~ string_type ~ ") || ':' || cast(coalesce(sum("
      ~ dbt_backfill.hex_to_integer('substr(' ~ row_digest_column ~ ', 1, 15)') ~ "), 0) as " ~ string_type ~ ")") }}
{% endmacro %}

{% macro _bucket_of(key_expression) %}
  {{ return('substr(' ~ dbt_backfill.sha256_hex(key_expression) ~ ', 1, 3)') }}
{% endmacro %}
