{#
  The canonical text of one column's value: the same logical value gives the same bytes on every engine.
  NULL -> \N; text escapes \ and the field separator | (so NULL <> '' and ('a|','b') <> ('a','|b'));
  integers in decimal; numerics with trailing zeros trimmed (12.0 = 12.00 = 12); booleans true/false;
  dates YYYY-MM-DD; timestamps YYYY-MM-DDTHH:MM:SS.ffffff; timestamptz the same in UTC with a Z; uuids in
  lower case. Floats have no text common to engines: they render as the engine prints them and the
  fingerprint's algorithm name says so (see fingerprint_relation).
#}
{% macro canonical_text(column_name, data_type) %}
  {{ return(adapter.dispatch('canonical_text', 'dbt_backfill')(column_name, data_type)) }}
{% endmacro %}

{% macro default__canonical_text(column_name, data_type) %}
  {{ exceptions.raise_compiler_error("dbt_backfill.canonical_text is not implemented for " ~ adapter.type()) }}
{% endmacro %}

{# PostgreSQL: the session is pinned by pin_session (DateStyle ISO), so date::text is already ISO; the
   timestamp forms go through to_char because ::text drops trailing zeros of the fraction. #}
{% macro postgres__canonical_text(column_name, data_type) %}
  {%- set column = adapter.quote(column_name) -%}
  {%- set family = dbt_backfill._type_family(data_type) -%}
  {%- if family == 'text' -%}
    {%- set rendered = "replace(replace(" ~ column ~ "::text, '\\', '\\\\'), '|', '\\|')" -%}
  {%- elif family == 'decimal' -%}
    {%- set rendered = "trim_scale(" ~ column ~ ")::text" -%}
  {%- elif family == 'timestamp' -%}
    {%- set rendered = "to_char(" ~ column ~ ", 'YYYY-MM-DD\"T\"HH24:MI:SS.US')" -%}
  {%- elif family == 'timestamptz' -%}
    {%- set rendered = "to_char(" ~ column ~ " at time zone 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS.US\"Z\"')" -%}
  {%- elif family == 'uuid' -%}
    {%- set rendered = "lower(" ~ column ~ "::text)" -%}
  {%- else -%}
    {# integer, boolean (true/false), date (ISO under the pinned DateStyle), float, other #}
    {%- set rendered = column ~ "::text" -%}
  {%- endif -%}
  {{ return("coalesce(" ~ rendered ~ ", '\\N')") }}
{% endmacro %}
