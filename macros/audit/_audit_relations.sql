{#
  The audit tables of the project's models, where record_audit_event writes them (_audit_relation: beside each
  model's own relation, custom schemas and aliases included, or the var dbt_backfill_audit_schema): of `model`
  alone when named (it must be a model of the project), else of every model that declares meta.backfill.
  Returns {relation name: {audit: the relation, targets: [the relations of the models whose trail it is]}},
  whether or not the table exists yet.
#}
{% macro _audit_relations(model=none) %}
  {% set nodes = [dbt_backfill._model_node(model)] if model else
                 graph.nodes.values() | selectattr('resource_type', 'equalto', 'model')
                 | selectattr('config.materialized', 'ne', 'ephemeral') | list %}
  {% set audits = {} %}
  {% for node in nodes if model or dbt_backfill._meta_backfill(node) %}
    {% set target = api.Relation.create(database=node.database, schema=node.schema, identifier=node.alias or node.name) %}
    {% set audit = dbt_backfill._audit_relation(target) %}
    {% do audits.setdefault(dbt_backfill._relation_name(audit), {'audit': audit, 'targets': []}).targets.append(target) %}
  {% endfor %}
  {{ return(audits) }}
{% endmacro %}
