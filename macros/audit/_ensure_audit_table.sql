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
