{# Lower-case hex SHA-256 of a text expression's UTF-8 bytes. #}
{% macro sha256_hex(text_expression) %}
  {{ return(adapter.dispatch('sha256_hex', 'dbt_backfill')(text_expression)) }}
{% endmacro %}

{% macro default__sha256_hex(text_expression) %}
  {{ exceptions.raise_compiler_error("dbt_backfill.sha256_hex is not implemented for " ~ adapter.type()) }}
{% endmacro %}

{# PostgreSQL: convert_to(.., 'UTF8'), not ::bytea, which would parse backslash escapes in the text. Each function
   is named in pg_catalog: convert_to takes a `name`, so a convert_to(text, text) in any schema on the search path
   matches the untyped 'UTF8' better and would stand in for it (tests/test_canonical_fingerprint.py). #}
{% macro postgres__sha256_hex(text_expression) %}
  {{ return("pg_catalog.encode(pg_catalog.sha256(pg_catalog.convert_to(" ~ text_expression ~ ", 'UTF8')), 'hex')") }}
{% endmacro %}

{# DuckDB: sha256() hashes the UTF-8 bytes of a VARCHAR and returns lower-case hex. #}
{% macro duckdb__sha256_hex(text_expression) %}
  {{ return("sha256(" ~ text_expression ~ ")") }}
{% endmacro %}

{# Spark: sha2(.., 256) hashes the UTF-8 bytes of a string and returns lower-case hex. #}
{% macro spark__sha256_hex(text_expression) %}
  {{ return("sha2(" ~ text_expression ~ ", 256)") }}
{% endmacro %}
