{# SQL true when the audit table `c` (a pg_class row) attributes its rows as _attribute_audit_rows makes it: the
   column, row level security enabled and forced, and the package's two policies as it wrote them (a policy
   changed by an owner could hide rows from a reader or let a name through; one added is refused on its own by
   refuse_untrusted_audit_table). #}
{% macro _audit_attribution_in_place() %}
  {{ return("(c.relrowsecurity and c.relforcerowsecurity "
    ~ "and exists (select 1 from pg_catalog.pg_attribute a where a.attrelid OPERATOR(pg_catalog.=) c.oid "
    ~ "and a.attname OPERATOR(pg_catalog.=) 'recorded_by' and not a.attisdropped) "
    ~ "and (select pg_catalog.array_agg(p.polname::pg_catalog.text || ' ' || p.polcmd::pg_catalog.text || ' ' "
    ~ "|| p.polpermissive::pg_catalog.text || ' ' || p.polroles::pg_catalog.text || ' ' "
    ~ "|| coalesce(pg_catalog.pg_get_expr(p.polqual, p.polrelid), '') || ' ' "
    ~ "|| coalesce(pg_catalog.pg_get_expr(p.polwithcheck, p.polrelid), '') order by p.polname) "
    ~ "from pg_catalog.pg_policy p where p.polrelid OPERATOR(pg_catalog.=) c.oid) "
    ~ "OPERATOR(pg_catalog.@>) ARRAY['dbt_backfill_own_rows a true {0}  ((recorded_by = CURRENT_USER) AND "
    ~ "(recorded_at = CURRENT_TIMESTAMP))', 'dbt_backfill_read r true {0} true '])") }}
{% endmacro %}
