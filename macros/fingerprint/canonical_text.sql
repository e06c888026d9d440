{#
  The canonical text of one column's value: the same logical value gives the same bytes on every engine, and two
  different values of one column never give the same bytes. Algorithm dbt_backfill/v3:
  NULL -> \N, and only NULL; integers in decimal; numerics with trailing zeros trimmed (12.0 = 12.00 = 12);
  booleans true/false; dates YYYY-MM-DD; timestamps YYYY-MM-DD HH:MM:SS with the fraction of a second only when it
  is not zero, its trailing zeros trimmed (what PostgreSQL and DuckDB print natively); timestamptz the same in UTC
  followed by +00; uuids in lower case; binary (bytea, blob, binary) as lower-case hex. Those texts hold no \ and no
  |, so they are written as they are. Every other type's text is escaped: \ -> \\ and | -> \| (text, enum labels,
  and the types with no text common to engines: floats as the engine prints them, nested values -- lists, arrays,
  structs, maps, unions -- as the engine's JSON, and anything else -- json, xml, interval, inet, arrays and
  user-defined types on PostgreSQL, bit, time -- as the engine's own text). So NULL <> '' <> '\N', and
  ('a|','b') <> ('a','|b'), whatever the type. The engine-text families make the algorithm engine-specific
  (fingerprint_relation names them): their fingerprints compare only on one engine.
  The escaping and the NULL marker are the same everywhere; what differs per engine is render_value.
  A text depends on the column's name and type alone: remembered for the invocation (_memo), each is built once.
#}
{% macro canonical_text(column_name, data_type) %}
  {%- set remembered = dbt_backfill._memo('canonical_text') -%}
  {%- set key = column_name ~ '\x1f' ~ data_type -%}
  {%- if key in remembered -%}{{ return(remembered[key]) }}{%- endif -%}
  {%- set family = dbt_backfill._type_family(data_type) -%}
  {%- set rendered = dbt_backfill.render_value(adapter.quote(column_name), family) -%}
  {#- the backslash is written chr(92): Spark reads a backslash in a string literal as an escape, PostgreSQL and
      DuckDB do not, and chr() is folded to a constant by all three -#}
  {%- if family not in dbt_backfill._families_without_separators() -%}
    {%- set rendered = "replace(replace(" ~ rendered ~ ", chr(92), chr(92) || chr(92)), '|', chr(92) || '|')" -%}
  {%- endif -%}
  {%- do remembered.update({key: "coalesce(" ~ rendered ~ ", chr(92) || 'N')"}) -%}
  {{ return(remembered[key]) }}
{% endmacro %}
