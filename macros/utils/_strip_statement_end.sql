{# A compiled model may end in ';' (or in a line comment): strip the ';' and end on a new line, so the SQL can
   be wrapped as a subquery. #}
{% macro _strip_statement_end(sql) %}
  {% set trimmed = sql | trim %}
  {% if trimmed.endswith(';') %}
    {% set trimmed = trimmed[:-1] %}
  {% endif %}
  {{ return(trimmed ~ '\n') }}
{% endmacro %}
