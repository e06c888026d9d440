{# The non-negative integer that a text expression of exactly 15 hex digits (60 bits) spells, as a 64-bit
   integer; summing such values is exact on every engine (PostgreSQL numeric, DuckDB HUGEINT). #}
{% macro hex_to_integer(hex_expression) %}
  {{ return(adapter.dispatch('hex_to_integer', 'dbt_backfill')(hex_expression)) }}
{% endmacro %}

{% macro default__hex_to_integer(hex_expression) %}
  {{ exceptions.raise_compiler_error("dbt_backfill.hex_to_integer is not implemented for " ~ adapter.type()) }}
{% endmacro %}

{# PostgreSQL: a bit string literal of 4 bits per digit, read as bigint. #}
{% macro postgres__hex_to_integer(hex_expression) %}
  {{ return("('x' || " ~ hex_expression ~ ")::bit(60)::bigint") }}
{% endmacro %}

{# DuckDB: a 0x-prefixed string casts to an integer. #}
{% macro duckdb__hex_to_integer(hex_expression) %}
  {{ return("cast('0x' || " ~ hex_expression ~ " as bigint)") }}
{% endmacro %}

{# Spark: conv() spells the value in decimal; as decimal(38,0), because Spark's sum of a bigint overflows where
   PostgreSQL's and DuckDB's widen. #}
{% macro spark__hex_to_integer(hex_expression) %}
  {{ return("cast(conv(" ~ hex_expression ~ ", 16, 10) as decimal(38, 0))") }}
{% endmacro %}
