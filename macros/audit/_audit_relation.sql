{% macro _audit_relation(target_relation) %}
  {% set schema = var('dbt_backfill_audit_schema', target_relation.schema ~ '_backfill') %}
  {{ return(api.Relation.create(database=target_relation.database, schema=schema, identifier='dbt_backfill_audit', type='table')) }}
{% endmacro %}
