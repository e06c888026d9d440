{# The schema the stages and backups go to: meta.backfill.stage_schema, else `<target's schema>_backfill`. Never the
   target's own schema, compared case-insensitively: DuckDB and Spark resolve `ANALYTICS` to `analytics`, and where
   an engine does not, refusing is the safe side. Stages beside the published tables would make clean's drops reach
   among them. #}
{% macro _stage_schema(stage_schema, target_relation) %}
  {% set stage_schema = stage_schema or (target_relation.schema ~ '_backfill') %}
  {% if (stage_schema | lower) == (target_relation.schema | lower) %}
    {% do dbt_backfill._fail('meta.backfill.stage_schema (' ~ stage_schema ~ ') is the schema of ' ~ target_relation
        ~ ' itself: stages and backups are kept apart from the published tables. Name another schema. Nothing was built '
        ~ 'and the target is unchanged.') %}
  {% endif %}
  {{ return(stage_schema) }}
{% endmacro %}
