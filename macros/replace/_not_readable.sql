{# Why this role may not read `relation` (PostgreSQL: no SELECT on it, as a planner on an applier's backup), or none. #}
{% macro default___not_readable(relation) %}
  {{ return(none) }}
{% endmacro %}

{% macro postgres___not_readable(relation) %}
  {% set row = dbt_backfill._execute("select pg_catalog.has_table_privilege(" ~ dbt_backfill._pg_oid(relation)
      ~ ", 'SELECT') as readable, current_user as reader").rows[0] %}
  {{ return(none if row['readable'] else 'not readable by ' ~ row['reader'] ~ ' (no SELECT on it)') }}
{% endmacro %}
