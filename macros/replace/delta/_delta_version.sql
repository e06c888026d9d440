{# The version a Delta table is at now: its newest commit. #}
{% macro _delta_version(relation) %}
  {{ return(dbt_backfill._delta_history(relation, 1)[0].version) }}
{% endmacro %}
