{% macro _fail(message) %}
  {% do dbt_backfill._emit_result('error', {'message': message}) %}
  {{ exceptions.raise_compiler_error('dbt_backfill: ' ~ message) }}
{% endmacro %}
