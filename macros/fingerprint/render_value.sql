{# SQL text of a non-null value of a type family ('text', 'integer', 'decimal', 'boolean', 'date', 'timestamp',
   'timestamptz', 'uuid', 'float', 'other'), in the canonical form canonical_text documents. #}
{% macro render_value(quoted_column, family) %}
  {{ return(adapter.dispatch('render_value', 'dbt_backfill')(quoted_column, family)) }}
{% endmacro %}

{% macro default__render_value(quoted_column, family) %}
  {{ exceptions.raise_compiler_error("dbt_backfill.render_value is not implemented for " ~ adapter.type()) }}
{% endmacro %}

{# PostgreSQL: the session is pinned by pin_session (DateStyle ISO), so date::text is already ISO; timestamps go
   through to_char because ::text drops trailing zeros of the fraction. #}
{% macro postgres__render_value(quoted_column, family) %}
  {%- if family == 'decimal' -%}
    {{ return("trim_scale(" ~ quoted_column ~ ")::text") }}
  {%- elif family == 'timestamp' -%}
    {{ return("to_char(" ~ quoted_column ~ ", 'YYYY-MM-DD\"T\"HH24:MI:SS.US')") }}
  {%- elif family == 'timestamptz' -%}
    {{ return("to_char(" ~ quoted_column ~ " at time zone 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS.US\"Z\"')") }}
  {%- elif family == 'uuid' -%}
    {{ return("lower(" ~ quoted_column ~ "::text)") }}
  {%- else -%}
    {# text, integer, boolean (true/false), date (ISO under the pinned DateStyle), float, other #}
    {{ return(quoted_column ~ "::text") }}
  {%- endif -%}
{% endmacro %}

{# DuckDB: no trim_scale(), so trailing zeros are trimmed from the decimal's text (DuckDB has no negative zero);
   strftime's %f is always six digits. #}
{% macro duckdb__render_value(quoted_column, family) %}
  {%- set as_text = "cast(" ~ quoted_column ~ " as varchar)" -%}
  {%- if family == 'decimal' -%}
    {{ return("case when contains(" ~ as_text ~ ", '.') then rtrim(rtrim(" ~ as_text ~ ", '0'), '.') else " ~ as_text ~ " end") }}
  {%- elif family == 'timestamp' -%}
    {{ return("strftime(" ~ quoted_column ~ ", '%Y-%m-%dT%H:%M:%S.%f')") }}
  {%- elif family == 'timestamptz' -%}
    {{ return("strftime(" ~ quoted_column ~ " at time zone 'UTC', '%Y-%m-%dT%H:%M:%S.%fZ')") }}
  {%- elif family == 'uuid' -%}
    {{ return("lower(" ~ as_text ~ ")") }}
  {%- else -%}
    {# text, integer, boolean (true/false), date (ISO), float, other #}
    {{ return(as_text) }}
  {%- endif -%}
{% endmacro %}
