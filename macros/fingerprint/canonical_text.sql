{#
  The canonical text of one column's value: the same logical value gives the same bytes on every engine.
  NULL -> \N; text escapes \ and the field separator | (so NULL <> '', '\N' <> NULL and ('a|','b') <> ('a','|b'));
  integers in decimal; numerics with trailing zeros trimmed (12.0 = 12.00 = 12); booleans true/false;
  dates YYYY-MM-DD; timestamps YYYY-MM-DD HH:MM:SS with the fraction of a second only when it is not zero,
  its trailing zeros trimmed (what PostgreSQL and DuckDB print natively); timestamptz the same in UTC followed
  by +00; uuids in lower case. Floats have no text common to engines: they render as the engine prints them and the
  fingerprint's algorithm name says so (see fingerprint_relation).
  The escaping and the NULL marker are the same everywhere; what differs per engine is render_value.
#}
{% macro canonical_text(column_name, data_type) %}
  {%- set family = dbt_backfill._type_family(data_type) -%}
  {%- set rendered = dbt_backfill.render_value(adapter.quote(column_name), family) -%}
  {#- the backslash is written chr(92): Spark reads a backslash in a string literal as an escape, PostgreSQL and
      DuckDB do not, and chr() is folded to a constant by all three -#}
  {%- if family == 'text' -%}
    {%- set rendered = "replace(replace(" ~ rendered ~ ", chr(92), chr(92) || chr(92)), '|', chr(92) || '|')" -%}
  {%- endif -%}
  {{ return("coalesce(" ~ rendered ~ ", chr(92) || 'N')") }}
{% endmacro %}
