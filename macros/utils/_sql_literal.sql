{# The one place a user-supplied value becomes SQL text: a string literal whose meaning depends on no server
   setting, so a value can never end the literal early.
   PostgreSQL: an escape string, E'...', with backslashes and quotes doubled. A plain '...' means something else
   when standard_conforming_strings is off (a legacy server or role setting: backslash then escapes the quote);
   E'...' reads the same under either setting.
   DuckDB: '...' with quotes doubled; backslash is an ordinary character and no setting changes that.
   Spark: backslash escapes are read inside '...' by default (spark.sql.parser.escapedStringLiterals=false); both
   are escaped. With that setting on, the literal still ends where it should and only its value changes, which the
   partition values' round trip (_check_partition_values) refuses. Spark also substitutes `${...}` in the statement's
   text before it parses it (spark.sql.variable.substitute, on by default: `${env:NAME}` reads the server's
   environment, `${spark.x}` a setting), so `$` is written as the escape \u0024: the text never holds `${`. #}
{% macro _sql_literal(value) %}
  {%- if value is none -%}
    {{ return('null') }}
  {%- endif -%}
  {{ return(adapter.dispatch('_sql_literal', 'dbt_backfill')(value | string)) }}
{% endmacro %}

{% macro default___sql_literal(text) %}
  {{ return("'" ~ text.replace("'", "''") ~ "'") }}
{% endmacro %}

{% macro postgres___sql_literal(text) %}
  {{ return("E'" ~ text.replace("\\", "\\\\").replace("'", "''") ~ "'") }}
{% endmacro %}

{% macro spark___sql_literal(text) %}
  {{ return("'" ~ text.replace("\\", "\\\\").replace("'", "\\'").replace("$", "\\u0024") ~ "'") }}
{% endmacro %}
