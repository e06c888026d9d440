{# SQL text of a non-null value of a type family ('text', 'integer', 'decimal', 'boolean', 'date', 'timestamp',
   'timestamptz', 'uuid', 'binary', 'float', 'nested', 'other'), in the canonical form canonical_text documents,
   before canonical_text escapes it. #}
{% macro render_value(quoted_column, family) %}
  {{ return(adapter.dispatch('render_value', 'dbt_backfill')(quoted_column, family)) }}
{% endmacro %}

{% macro default__render_value(quoted_column, family) %}
  {{ exceptions.raise_compiler_error("dbt_backfill.render_value is not implemented for " ~ adapter.type()) }}
{% endmacro %}

{# PostgreSQL: the session is pinned by pin_session (DateStyle ISO, TimeZone UTC), so dates, timestamps and
   timestamptz print in the canonical form with ::text, the cheapest render there is (to_char cost 2.5x). Functions
   are named in pg_catalog: a trim_scale of a domain over numeric, in any schema on the search path, would match a
   domain-typed column better than the built-in. #}
{% macro postgres__render_value(quoted_column, family) %}
  {%- if family == 'decimal' -%}
    {{ return("pg_catalog.trim_scale(" ~ quoted_column ~ ")::text") }}
  {%- elif family == 'uuid' -%}
    {{ return("pg_catalog.lower(" ~ quoted_column ~ "::text)") }}
  {%- elif family == 'binary' -%}
    {{ return("pg_catalog.encode(" ~ quoted_column ~ ", 'hex')") }}
  {%- else -%}
    {# text, integer, boolean (true/false), date, timestamp, timestamptz (UTC, +00), float, and everything else
       as PostgreSQL prints it (arrays quote their elements; IntervalStyle and lc_monetary are pinned) #}
    {{ return(quoted_column ~ "::text") }}
  {%- endif -%}
{% endmacro %}

{# DuckDB: no trim_scale(), so trailing zeros are trimmed from the decimal's text (DuckDB has no negative zero);
   a timestamp's text is already canonical; a timestamptz is converted to UTC explicitly, so the render does not
   depend on the session's time zone. #}
{% macro duckdb__render_value(quoted_column, family) %}
  {%- set as_text = "cast(" ~ quoted_column ~ " as varchar)" -%}
  {%- if family == 'decimal' -%}
    {{ return("case when contains(" ~ as_text ~ ", '.') then rtrim(rtrim(" ~ as_text ~ ", '0'), '.') else " ~ as_text ~ " end") }}
  {%- elif family == 'timestamptz' -%}
    {{ return("cast(" ~ quoted_column ~ " at time zone 'UTC' as varchar) || '+00'") }}
  {%- elif family == 'uuid' -%}
    {{ return("lower(" ~ as_text ~ ")") }}
  {%- elif family == 'binary' -%}
    {{ return("lower(hex(" ~ quoted_column ~ "))") }}
  {%- elif family == 'nested' -%}
    {# a list's text leaves some strings unquoted (['a, b', c]): its JSON quotes and escapes every string #}
    {{ return("cast(to_json(" ~ quoted_column ~ ") as varchar)") }}
  {%- else -%}
    {# text (and enum labels), integer, boolean (true/false), date (ISO), timestamp, float, other #}
    {{ return(as_text) }}
  {%- endif -%}
{% endmacro %}

{# Spark: TIMESTAMP is an instant (_type_family names it timestamptz; TIMESTAMP_NTZ, the naive kind, is timestamp),
   so it renders in UTC with +00; pin_session sets the session time zone to UTC, in which Spark prints it. Spark has
   no trim_scale(). #}
{% macro spark__render_value(quoted_column, family) %}
  {%- set as_text = "cast(" ~ quoted_column ~ " as string)" -%}
  {%- if family == 'decimal' -%}
    {{ return("case when instr(" ~ as_text ~ ", '.') > 0 then trim(trailing '.' from trim(trailing '0' from " ~ as_text ~ ")) else " ~ as_text ~ " end") }}
  {%- elif family == 'timestamptz' -%}
    {{ return(as_text ~ " || '+00'") }}
  {%- elif family == 'binary' -%}
    {{ return("lower(hex(" ~ quoted_column ~ "))") }}
  {%- elif family == 'nested' -%}
    {# cast(map as string) writes {a -> 1, b -> 2} with its strings unquoted: to_json quotes and escapes them #}
    {{ return("to_json(" ~ quoted_column ~ ")") }}
  {%- else -%}
    {# text, integer, boolean (true/false), date (ISO), timestamp_ntz, float, other #}
    {{ return(as_text) }}
  {%- endif -%}
{% endmacro %}
