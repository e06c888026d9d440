{# 'table', 'view', another kind in lower case, or none when the relation is gone. PostgreSQL reads pg_class:
   information_schema lists only what the role has a privilege on, and would call another role's table gone. #}
{% macro postgres___relation_kind(relation) %}
  {% set found = dbt_backfill._execute("select c.relkind from pg_catalog.pg_class c where c.oid = "
      ~ dbt_backfill._pg_oid(relation)).rows %}
  {% if found | length != 1 %}{{ return(none) }}{% endif %}
  {{ return({'r': 'table', 'v': 'view', 'm': 'materialized view', 'p': 'partitioned table', 'f': 'foreign table'}
            .get(found[0][0], 'relation of kind ' ~ found[0][0])) }}
{% endmacro %}

{% macro default___relation_kind(relation) %}
  {% set found = dbt_backfill._execute('select table_type from information_schema.tables where table_schema = '
      ~ dbt_backfill._sql_literal(relation.schema) ~ ' and table_name = ' ~ dbt_backfill._sql_literal(relation.identifier)
      ~ ((' and table_catalog = ' ~ dbt_backfill._sql_literal(relation.database)) if relation.database else '')).rows %}
  {% if found | length != 1 %}{{ return(none) }}{% endif %}
  {{ return('table' if found[0][0] == 'BASE TABLE' else found[0][0] | lower) }}
{% endmacro %}

{% macro spark___relation_kind(relation) %}
  {% set found = adapter.get_relation(database=relation.database, schema=relation.schema, identifier=relation.identifier) %}
  {{ return(found.type if found is not none else none) }}
{% endmacro %}
