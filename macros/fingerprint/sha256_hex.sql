{# Lower-case hex SHA-256 of a text expression's UTF-8 bytes. #}
{% macro sha256_hex(text_expression) %}
  {{ return(adapter.dispatch('sha256_hex', 'dbt_backfill')(text_expression)) }}
{% endmacro %}

{% macro default__sha256_hex(text_expression) %}
  {{ exceptions.raise_compiler_error("dbt_backfill.sha256_hex is not implemented for " ~ adapter.type()) }}
{% endmacro %}

{# PostgreSQL: convert_to(.., 'UTF8'), not ::bytea, which would parse backslash escapes in the text. #}
{% macro postgres__sha256_hex(text_expression) %}
  {{ return("encode(sha256(convert_to(" ~ text_expression ~ ", 'UTF8')), 'hex')") }}
{% endmacro %}

{# DuckDB: sha256() hashes the UTF-8 bytes of a VARCHAR and returns lower-case hex. #}
{% macro duckdb__sha256_hex(text_expression) %}
  {{ return("sha256(" ~ text_expression ~ ")") }}
{% endmacro %}

{# Spark: sha2(.., 256) hashes the UTF-8 bytes of a string and returns lower-case hex. #}
{% macro spark__sha256_hex(text_expression) %}
  {{ return("sha2(" ~ text_expression ~ ", 256)") }}
{% endmacro %}
