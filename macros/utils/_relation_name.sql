{# database.schema.identifier, unquoted: how the packet names a relation for a person. #}
{% macro _relation_name(relation) %}
  {{ return([relation.database, relation.schema, relation.identifier] | select | join('.')) }}
{% endmacro %}
