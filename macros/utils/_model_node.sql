{# The graph node of the model named `model_name`; fails naming the problem when there is none or several. #}
{% macro _model_node(model_name) %}
  {% set matches = graph.nodes.values() | selectattr('resource_type', 'equalto', 'model') | selectattr('name', 'equalto', model_name) | list %}
  {% if matches | length != 1 %}
    {% do dbt_backfill._fail((matches | length | string if matches else 'no') ~ ' model(s) named ' ~ tojson(model_name)
        ~ ' in this dbt project' ~ (': name one unambiguously' if matches else '') ~ '. Nothing was changed.') %}
  {% endif %}
  {{ return(matches[0]) }}
{% endmacro %}
