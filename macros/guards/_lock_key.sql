{# The two-int advisory-lock key of a table: a fixed class for dbt-backfill, and the hash of its name. The lock
   functions and hashtext are named in pg_catalog: the pre-hook runs in the scheduled run's session, under the
   user's search_path, where a function of the same name could otherwise stand in for them. #}
{% macro _lock_key(relation) %}
  {{ return("1684167270, pg_catalog.hashtext(" ~ dbt_backfill._sql_literal('dbt_backfill:' ~ dbt_backfill._relation_name(relation) | lower) ~ ")") }}
{% endmacro %}
