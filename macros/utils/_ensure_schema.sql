{# Create a schema unless it exists, looked up first: PostgreSQL checks CREATE on the database before it reads
   IF NOT EXISTS, and a planner whose stage schema an administrator made for it (docs/security.md, the roles and
   grants) has no such privilege. adapter.create_schema commits whatever transaction was open. #}
{% macro _ensure_schema(database, schema) %}
  {% if not adapter.check_schema_exists(database, schema) %}
    {% do adapter.create_schema(api.Relation.create(database=database, schema=schema)) %}
    {% do dbt_backfill._transaction_open(false) %}
  {% endif %}
{% endmacro %}
