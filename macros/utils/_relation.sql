{# A relation from the {database, schema, identifier} mapping the CLI passes in --args. #}
{% macro _relation(ref) %}
  {{ return(api.Relation.create(database=ref.get('database'), schema=ref['schema'], identifier=ref['identifier'], type='table')) }}
{% endmacro %}
