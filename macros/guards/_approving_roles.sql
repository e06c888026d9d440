{#
  The roles that gave an approval of run `run_id`'s packet `packet_sha256` with their own login: each distinct writer
  of an `approval_given` row (PostgreSQL attributes every row to the role that wrote it and lets no role write
  another's name: _attribute_audit_rows), [{role, member (of one of `roles`, directly or through others), planner
  (it recorded the run's plan), revoked (it recorded `approval_revoked` for the run since)}]. None on the engines without roles (DuckDB, Spark): there the key is the proof.
#}
{% macro _approving_roles(target_relation, run_id, packet_sha256, roles) %}
  {{ return(adapter.dispatch('_approving_roles', 'dbt_backfill')(target_relation, run_id, packet_sha256, roles)) }}
{% endmacro %}

{% macro default___approving_roles(target_relation, run_id, packet_sha256, roles) %}
  {{ return([]) }}
{% endmacro %}

{% macro postgres___approving_roles(target_relation, run_id, packet_sha256, roles) %}
  {% set audit = dbt_backfill._audit_relation(target_relation) %}
  {% if adapter.get_relation(database=audit.database, schema=audit.schema, identifier=audit.identifier) is none %}
    {{ return([]) }}
  {% endif %}
  {# its rows name their writers only if the table attributes them (a cascade's root: another table than apply's) #}
  {% do dbt_backfill.refuse_untrusted_audit_table(audit, target_relation) %}
  {% set names = [] %}
  {% for role in roles %}{% do names.append(dbt_backfill._sql_literal(role)) %}{% endfor %}
  {% set rows = dbt_backfill._execute("select w.rolname as bf_role, exists (select 1 from pg_catalog.pg_roles r where "
      ~ "r.rolname OPERATOR(pg_catalog.=) ANY (array[" ~ names | join(', ') ~ "]::text[]) and pg_catalog.pg_has_role(w.oid, "
      ~ "r.oid, 'MEMBER')) as bf_member, exists (select 1 from " ~ audit ~ " p where p.run_id OPERATOR(pg_catalog.=) g.run_id "
      ~ "and p.event OPERATOR(pg_catalog.=) ANY (array['planned', 'packet_recorded']) and p.recorded_by OPERATOR(pg_catalog.=) "
      ~ "g.recorded_by) as bf_planner, exists (select 1 from " ~ audit ~ " v where v.run_id OPERATOR(pg_catalog.=) g.run_id "
      ~ "and v.event OPERATOR(pg_catalog.=) 'approval_revoked' and v.recorded_by OPERATOR(pg_catalog.=) g.recorded_by) as "
      ~ "bf_revoked from (select distinct run_id, recorded_by from " ~ audit ~ " where event "
      ~ "OPERATOR(pg_catalog.=) 'approval_given' and run_id OPERATOR(pg_catalog.=) " ~ dbt_backfill._sql_literal(run_id)
      ~ " and packet_sha256 OPERATOR(pg_catalog.=) " ~ dbt_backfill._sql_literal(packet_sha256 or '') ~ ") g join "
      ~ "pg_catalog.pg_roles w on w.rolname OPERATOR(pg_catalog.=) g.recorded_by order by 1").rows %}
  {% set found = [] %}
  {% for row in rows %}
    {% do found.append({'role': row['bf_role'], 'member': row['bf_member'], 'planner': row['bf_planner'],
                        'revoked': row['bf_revoked']}) %}
  {% endfor %}
  {{ return(found) }}
{% endmacro %}
