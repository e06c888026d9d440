{#
  One row of the audit trail: the table dbt_backfill_audit beside the model's relation (`<model schema>_backfill`),
  or in the dbt_backfill_audit_schema var's schema (_audit_relation), created on first use (_ensure_audit_table).
  Written inside the caller's transaction, so a partition's replacement and its audit row commit or vanish together.
  Values are text (fingerprints as JSON). Events: building_stages, planned (a packet was written), packet_recorded
  (pure dbt), plan_failed, nothing_to_change, approved, source_drift_allowed, partition_replaced, partition_skipped,
  checkpoint, applied, verified, verify_mismatch, rolled_back, refused, cleaned, full_refresh, window_proven (the
  input windows proven over the whole history, or found too narrow: _window_proof.sql).
#}
{% macro record_audit_event(target_relation, event, run_id, fields={}) %}
  {% set audit = dbt_backfill._audit_relation(target_relation) %}
  {% do dbt_backfill.refuse_untrusted_audit_table(audit, target_relation, writing=true) %}
  {% set columns = ['recorded_at', 'run_id', 'model', 'target', 'event', 'partition_value', 'packet_sha256',
                    'approved_by', 'fingerprint_before', 'fingerprint_after', 'duration_ms', 'outcome', 'detail'] %}
  {% set values = [] %}
  {% for column in columns[1:] %}
    {% set value = {'run_id': run_id, 'target': dbt_backfill._relation_name(target_relation), 'event': event}.get(column, fields.get(column)) %}
    {% do values.append(dbt_backfill._sql_literal(none if value is none else (value if value is string else tojson(value)))) %}
  {% endfor %}
  {% do dbt_backfill._execute('insert into ' ~ audit ~ ' (' ~ columns | join(', ') ~ ') values (current_timestamp, '
                              ~ values | join(', ') ~ ')', fetch=false) %}
{% endmacro %}

{% macro _audit_relation(target_relation) %}
  {% set schema = var('dbt_backfill_audit_schema', target_relation.schema ~ '_backfill') %}
  {{ return(api.Relation.create(database=target_relation.database, schema=schema, identifier='dbt_backfill_audit', type='table')) }}
{% endmacro %}

{# Create the audit schema and table if missing, in their own committed transaction. Looked up first: an applier
   needs no CREATE privilege on the database once a plan made them (PostgreSQL checks it before IF NOT EXISTS).
   An existing table is checked (refuse_untrusted_audit_table); one made before rows were attributed to their
   writers gets that from its owner there. #}
{% macro _ensure_audit_table(target_relation) %}
  {% set audit = dbt_backfill._audit_relation(target_relation) %}
  {% if adapter.get_relation(database=audit.database, schema=audit.schema, identifier=audit.identifier) is not none %}
    {% do dbt_backfill.refuse_untrusted_audit_table(audit, target_relation) %}
    {{ return(none) }}
  {% endif %}
  {% do dbt_backfill._ensure_schema(audit.database, audit.schema) %}
  {% set text = dbt.type_string() %}
  {% do dbt_backfill._execute('create table if not exists ' ~ audit ~ ' (recorded_at ' ~ dbt_backfill._instant_type() ~ ', run_id '
      ~ text ~ ', model ' ~ text ~ ', target ' ~ text ~ ', event ' ~ text ~ ', partition_value ' ~ text ~ ', packet_sha256 '
      ~ text ~ ', approved_by ' ~ text ~ ', fingerprint_before ' ~ text ~ ', fingerprint_after ' ~ text ~ ', duration_ms '
      ~ text ~ ', outcome ' ~ text ~ ', detail ' ~ text ~ ')', fetch=false) %}
  {% do dbt_backfill._attribute_audit_rows(audit) %}
  {% do dbt_backfill._commit() %}
{% endmacro %}

{# The type of an instant: PostgreSQL's and DuckDB's timestamptz; Spark's TIMESTAMP is one already. #}
{% macro _instant_type() %}
  {{ return(adapter.dispatch('_instant_type', 'dbt_backfill')()) }}
{% endmacro %}

{% macro default___instant_type() %}
  {{ return('timestamp with time zone') }}
{% endmacro %}

{% macro spark___instant_type() %}
  {{ return('timestamp') }}
{% endmacro %}

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
  {% for node in nodes if model or (node.config.meta or {}).get('backfill') or (node.meta or {}).get('backfill') %}
    {% set target = api.Relation.create(database=node.database, schema=node.schema, identifier=node.alias or node.name) %}
    {% set audit = dbt_backfill._audit_relation(target) %}
    {% do audits.setdefault(dbt_backfill._relation_name(audit), {'audit': audit, 'targets': []}).targets.append(target) %}
  {% endfor %}
  {{ return(audits) }}
{% endmacro %}
