{# _rows_summary(row digest column): '<rows>:<exact sum of the digests' first 15 hex digits>', an aggregate: how the
   canonical fingerprint summarises a partition. #}
{% macro _rows_summary(row_digest_column) %}
  {% set string_type = dbt.type_string() %}
  {{ return("cast(count(*) as " ~ string_type ~ ") || ':' || cast(coalesce(sum("
      ~ dbt_backfill.hex_to_integer('substr(' ~ row_digest_column ~ ', 1, 15)') ~ "), 0) as " ~ string_type ~ ")") }}
{% endmacro %}
