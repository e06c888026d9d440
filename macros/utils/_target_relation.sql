{# The published target, which must exist: a backfill repairs partitions, it does not publish a new table. #}
{% macro _target_relation(target) %}
  {% set relation = adapter.get_relation(database=target.get('database'), schema=target['schema'], identifier=target['identifier']) %}
  {% if relation is none %}
    {% do dbt_backfill._fail("the target " ~ target['schema'] ~ "." ~ target['identifier'] ~ " does not exist: run the model once (dbt run) before backfilling it. Nothing was changed.") %}
  {% endif %}
  {{ return(relation) }}
{% endmacro %}
