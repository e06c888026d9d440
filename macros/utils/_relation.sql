{# A relation from the {database, schema, identifier} mapping the CLI passes in --args. #}
{% macro _relation(ref) %}
  {{ return(api.Relation.create(database=ref.get('database'), schema=ref['schema'], identifier=ref['identifier'], type='table')) }}
{% endmacro %}

{# A new mapping: `base` updated with `extra` (neither is changed). #}
{% macro _merged(base, extra) %}
  {% set merged = {} %}
  {% do merged.update(base) %}
  {% do merged.update(extra) %}
  {{ return(merged) }}
{% endmacro %}
