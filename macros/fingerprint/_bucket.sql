{# _row_digest(canonical fields): the SHA-256 of a row's canonical fields joined by '|': the row digest of the
   canonical fingerprint and of the change summary. #}
{% macro _row_digest(fields) %}
  {{ return(dbt_backfill.sha256_hex(fields | join(" || '|' || "))) }}
{% endmacro %}

{# _rows_summary(row digest column): '<rows>:<exact sum of the digests' first 15 hex digits>', an aggregate: how the
   canonical fingerprint summarises a partition and the change summary a bucket. #}
{% macro _rows_summary(row_digest_column) %}
  {% set string_type = dbt.type_string() %}
  {{ return("cast(count(*) as " ~ string_type ~ ") || ':' || cast(coalesce(sum("
      ~ dbt_backfill.hex_to_integer('substr(' ~ row_digest_column ~ ', 1, 15)') ~ "), 0) as " ~ string_type ~ ")") }}
{% endmacro %}

{# _bucket_of(key expression): one of 4,096 buckets for a canonical key. Both sides of a change summary are
   bucketed in the same statement on the same engine, so the engine's own fast hash will do; nothing outside that
   statement sees a bucket number. The default is the portable (and slower) first 3 hex digits of its SHA-256. #}
{% macro _bucket_of(key_expression) %}
  {{ return(adapter.dispatch('_bucket_of', 'dbt_backfill')(key_expression)) }}
{% endmacro %}

{% macro default___bucket_of(key_expression) %}
  {{ return('substr(' ~ dbt_backfill.sha256_hex(key_expression) ~ ', 1, 3)') }}
{% endmacro %}

{% macro postgres___bucket_of(key_expression) %}
  {{ return('(pg_catalog.hashtext(' ~ key_expression ~ ') & 4095)') }}
{% endmacro %}

{% macro duckdb___bucket_of(key_expression) %}
  {{ return('(hash(' ~ key_expression ~ ') % 4096)') }}
{% endmacro %}

{% macro spark___bucket_of(key_expression) %}
  {{ return('pmod(hash(' ~ key_expression ~ '), 4096)') }}
{% endmacro %}
