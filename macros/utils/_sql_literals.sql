{# The one place a user-supplied value becomes SQL text (each of `values`, in one call; none becomes null): a
   string literal whose meaning depends on no server setting, so a value can never end the literal early.
   PostgreSQL: an escape string, E'...', with backslashes and quotes doubled. A plain '...' means something else
   when standard_conforming_strings is off (a legacy server or role setting: backslash then escapes the quote);
   E'...' reads the same under either setting.
   DuckDB: '...' with quotes doubled; backslash is an ordinary character and no setting changes that.
   Spark: backslash escapes are read inside '...' by default (spark.sql.parser.escapedStringLiterals=false); both
   are escaped. With that setting on, the literal still ends where it should and only its value changes, which the
   partition values' round trip (_check_partition_values) refuses. Spark also substitutes `${...}` in the statement's
   text before it parses it (spark.sql.variable.substitute, on by default: `${env:NAME}` reads the server's
   environment, `${spark.x}` a setting), so `$` is written as the escape \u0024: the text never holds `${`. #}
{% macro _sql_literals(values) %}
  {% set texts = [] %}
  {% for value in values if value is not none %}{% do texts.append(value | string) %}{% endfor %}
  {% set quoted = adapter.dispatch('_sql_literals', 'dbt_backfill')(texts) if texts else [] %}
  {% set literals, taken = [], namespace(count=0) %}
  {% for value in values %}
    {% if value is none %}
      {% do literals.append('null') %}
    {% else %}
      {% do literals.append(quoted[taken.count]) %}{% set taken.count = taken.count + 1 %}
    {% endif %}
  {% endfor %}
  {{ return(literals) }}
{% endmacro %}

{% macro default___sql_literals(texts) %}
  {% set quoted = [] %}
  {% for text in texts %}{% do quoted.append("'" ~ text.replace("'", "''") ~ "'") %}{% endfor %}
  {{ return(quoted) }}
{% endmacro %}

{% macro postgres___sql_literals(texts) %}
  {% set quoted = [] %}
  {% for text in texts %}{% do quoted.append("E'" ~ text.replace("\\", "\\\\").replace("'", "''") ~ "'") %}{% endfor %}
  {{ return(quoted) }}
{% endmacro %}

{% macro spark___sql_literals(texts) %}
  {% set quoted = [] %}
  {% for text in texts %}
    {% do quoted.append("'" ~ text.replace("\\", "\\\\").replace("'", "\\'").replace("$", "\\u0024") ~ "'") %}
  {% endfor %}
  {{ return(quoted) }}
{% endmacro %}
