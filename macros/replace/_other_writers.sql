{# Roles other than its owner that may write `relation` (INSERT, UPDATE, DELETE, TRUNCATE granted to them or to
   PUBLIC): PostgreSQL. A stage or backup is only as trustworthy as who can write it. DuckDB has no roles; Spark's
   catalog keeps none. #}
{% macro _other_writers(relation) %}
  {{ return(adapter.dispatch('_other_writers', 'dbt_backfill')(relation)) }}
{% endmacro %}

{% macro default___other_writers(relation) %}
  {{ return([]) }}
{% endmacro %}

{% macro postgres___other_writers(relation) %}
  {% set rows = dbt_backfill._execute("select distinct case when a.grantee = 0 then 'PUBLIC' else pg_catalog.pg_get_userbyid(a.grantee) end "
      ~ "from pg_catalog.pg_class c join pg_catalog.pg_namespace n on n.oid = c.relnamespace, pg_catalog.aclexplode(c.relacl) a "
      ~ "where n.nspname = " ~ dbt_backfill._sql_literal(relation.schema) ~ " and c.relname = " ~ dbt_backfill._sql_literal(relation.identifier)
      ~ " and a.grantee <> c.relowner and a.privilege_type in ('INSERT', 'UPDATE', 'DELETE', 'TRUNCATE') order by 1").rows %}
  {% set writers = [] %}
  {% for row in rows %}{% do writers.append(row[0]) %}{% endfor %}
  {{ return(writers) }}
{% endmacro %}
