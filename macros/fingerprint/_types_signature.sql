{# Columns' names and types as one text: relations whose columns have the same signature can be read in one union
   (a union types each column by its first branch, and would coerce another relation's values to it). #}
{% macro _types_signature(columns) %}
  {% set signature = [] %}
  {% for column in columns %}{% do signature.append(column.name ~ ' ' ~ column.data_type) %}{% endfor %}
  {{ return(signature | join(', ')) }}
{% endmacro %}
