{# {database, schema, identifier} of a relation, as the packet records it. #}
{% macro _relation_ref(relation) %}
  {{ return({'database': relation.database, 'schema': relation.schema, 'identifier': relation.identifier}) }}
{% endmacro %}
