{# PostgreSQL: a subquery giving the oid of `relation` in pg_class, by its schema and name as literals (the catalog
   queries of replace/ and compare/ read one relation's triggers, policies and columns by it). #}
{% macro _pg_oid(relation) %}
  {{ return("(select c.oid from pg_catalog.pg_class c join pg_catalog.pg_namespace n on n.oid = c.relnamespace where n.nspname = "
      ~ dbt_backfill._sql_literal(relation.schema) ~ " and c.relname = " ~ dbt_backfill._sql_literal(relation.identifier) ~ ")") }}
{% endmacro %}
