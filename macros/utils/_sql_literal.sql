{# The one place a user-supplied value becomes SQL text: a standard string literal with quotes doubled.
   Both PostgreSQL (standard_conforming_strings, the default since 9.1) and DuckDB treat backslash as an
   ordinary character inside '...'. #}
{% macro _sql_literal(value) %}
  {%- if value is none -%}
    {{ return('null') }}
  {%- endif -%}
  {{ return("'" ~ (value | string).replace("'", "''") ~ "'") }}
{% endmacro %}
