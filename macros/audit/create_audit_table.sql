{#
  Make the audit table of `model` (dbt_backfill_audit beside its relation, or in the dbt_backfill_audit_schema
  var's schema) as the role running this, its rows attributed to their writers (_attribute_audit_rows); when it
  exists already, check it as every reader does. For the roles and grants of docs/security.md: the target's owner
  makes it before the first plan, so that neither the planner nor the applier ever owns it (an owner can switch
  its row security off, or leave a trigger that outlives handing it over).

  dbt run-operation dbt_backfill.create_audit_table --args '{model: fct_trips}'
#}
{% macro create_audit_table(model) %}
  {% do dbt_backfill.refuse_unsafe_search_path() %}
  {% set node = dbt_backfill._model_node(model) %}
  {% set target_relation = api.Relation.create(database=node.database, schema=node.schema, identifier=node.alias or node.name) %}
  {% do dbt_backfill._ensure_audit_table(target_relation) %}
  {% set audit = dbt_backfill._relation_name(dbt_backfill._audit_relation(target_relation)) %}
  {% do log('The audit table of ' ~ model ~ ' is ' ~ audit ~ '.', info=true) %}
  {% do dbt_backfill._emit_result('audit_table', {'model': model, 'audit': audit}) %}
{% endmacro %}
