{# The session's search_path as the schemas it resolves to now, in its order (pg_catalog where the setting names
   it, else implicitly first as PostgreSQL searches it): what the model's SQL is given back (_unpin_session). #}
{% macro _resolved_search_path() %}
  {{ return(dbt_backfill._execute("select coalesce((select pg_catalog.string_agg(pg_catalog.quote_ident(p.nspname), ', ' "
      ~ "order by p.position) from pg_catalog.unnest(pg_catalog.current_schemas(false)) with ordinality as p(nspname, "
      ~ "position)), '') as path").rows[0][0]) }}
{% endmacro %}
