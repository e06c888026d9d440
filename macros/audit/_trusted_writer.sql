{#
  SQL, true for an audit row whose writer may vouch for what it says (PostgreSQL; every row elsewhere: the other
  engines have no roles). The rows the checks rely on are written by the role they vouch for (_attribute_audit_rows
  makes recorded_by the writer's own name):
    plan rows (building_stages, planned, packet_recorded, plan_failed, nothing_to_change, window_proven,
              cascade_planned): what was planned, which stages exist, when the approval expires, which windows
              were proven, which root a cascade's child was planned under. Trusted from the owner of the audit table's schema (the
              planner, who owns the stage schema) or of the table, and their members: the planner's word;
    full_refresh: from the target's owner and its members (only they can rebuild it);
    stale_scan:   from the target's owner and its members, and from the reader itself (a scan's vouch says the
              partitions need no repair: the applier, who may write the target, must not say so to the planner);
    target rows (approved, partition_replaced, partition_skipped, rolled_back, applied, checkpoint,
              source_drift_allowed): what was done to the target. Trusted from a role that may insert into and
              delete from the target, or act as its owner: one that could have done it, as the row says;
    the rest (cleaned, refused, verified, ...): from either.
  Superusers everywhere, and rows written before attribution (recorded_by null) as before, except where
  `attributed_only` (a plan's record for an apply: a packet planned before the upgrade is planned again). A row from anyone else
  is left out where it would decide something: an applier's inserted `building_stages` row does not shorten an
  approval, nor a second `packet_recorded` refuse a rollback, nor a `planned` row validate an edited packet.
  `target_relation` none: a read of plan rows alone, whose target is not known (a run id names no table).
  Evaluated against the roles as they are now: a writer since dropped, or one whose grants were revoked, no longer
  vouches for its rows (a rollback still restores only a partition holding its own approved rows).
#}
{% macro _trusted_writer(audit, target_relation=none, attributed_only=false) %}
  {{ return(adapter.dispatch('_trusted_writer', 'dbt_backfill')(audit, target_relation, attributed_only)) }}
{% endmacro %}

{% macro default___trusted_writer(audit, target_relation=none, attributed_only=false) %}
  {{ return('true') }}
{% endmacro %}

{% macro postgres___trusted_writer(audit, target_relation=none, attributed_only=false) %}
  {% set audit_oid = 'pg_catalog.to_regclass(' ~ dbt_backfill._sql_literal(audit | string) ~ ')' %}
  {% set target_oid = 'pg_catalog.to_regclass(' ~ dbt_backfill._sql_literal(target_relation | string) ~ ')' %}
  {% set target_owner = "pg_catalog.pg_has_role(w.oid, (select c.relowner from pg_catalog.pg_class c where c.oid "
      ~ "OPERATOR(pg_catalog.=) " ~ target_oid ~ "), 'MEMBER')" %}
  {% set planner = "(select pg_catalog.pg_has_role(w.oid, c.relowner, 'MEMBER') or pg_catalog.pg_has_role(w.oid, "
      ~ "n.nspowner, 'MEMBER') from pg_catalog.pg_class c join pg_catalog.pg_namespace n on n.oid OPERATOR(pg_catalog.=) "
      ~ "c.relnamespace where c.oid OPERATOR(pg_catalog.=) " ~ audit_oid ~ ")" %}
  {% set target_writer = 'false' if target_relation is none else "coalesce(" ~ target_owner
      ~ " or (pg_catalog.has_table_privilege(w.oid, " ~ target_oid ~ ", 'INSERT') and pg_catalog.has_table_privilege(w.oid, "
      ~ target_oid ~ ", 'DELETE')), false)" %}
  {% set target_owner = 'false' if target_relation is none else 'coalesce(' ~ target_owner ~ ', false)' %}
  {{ return("(" ~ ("" if attributed_only else "recorded_by is null or ") ~ "exists (select 1 from pg_catalog.pg_roles w "
    ~ "where w.rolname OPERATOR(pg_catalog.=) recorded_by and (w.rolsuper or case "
    ~ "when event OPERATOR(pg_catalog.=) ANY (" ~ dbt_backfill._audit_events_array(dbt_backfill._plan_events()) ~ ") then " ~ planner ~ " "
    ~ "when event OPERATOR(pg_catalog.=) 'full_refresh' then " ~ target_owner ~ " "
    ~ "when event OPERATOR(pg_catalog.=) 'stale_scan' then " ~ target_owner ~ " or w.rolname OPERATOR(pg_catalog.=) current_user "
    ~ "when event OPERATOR(pg_catalog.=) ANY (" ~ dbt_backfill._audit_events_array(dbt_backfill._target_events()) ~ ") then " ~ target_writer ~ " "
    ~ "else " ~ planner ~ " or " ~ target_writer ~ " end)))") }}
{% endmacro %}

{# The events a plan writes, and those that say what was done to the target (_trusted_writer). #}
{% macro _plan_events() %}
  {{ return(['building_stages', 'planned', 'packet_recorded', 'plan_failed', 'nothing_to_change', 'window_proven',
             'cascade_planned']) }}
{% endmacro %}

{% macro _target_events() %}
  {{ return(['approved', 'partition_replaced', 'partition_skipped', 'rolled_back', 'applied', 'checkpoint',
             'source_drift_allowed']) }}
{% endmacro %}

{% macro _audit_events_array(events) %}
  {{ return("ARRAY[" ~ events | map('tojson') | join(', ') | replace('"', "'") ~ "]::pg_catalog.text[]") }}
{% endmacro %}
