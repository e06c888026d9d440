{# Database, schema and name as given, unquoted: one key however the relation was rendered. #}
{% macro _columns_key(relation) %}
  {{ return([relation.database or '', relation.schema or '', relation.identifier or ''] | join('\x1f')) }}
{% endmacro %}
