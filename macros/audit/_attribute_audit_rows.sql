{#
  Every row of the audit trail names the role that wrote it, and no role can write another's name (PostgreSQL):
  a `recorded_by` column that defaults to current_user, and row level security, forced on the owner too, whose only
  INSERT policy is `recorded_by = current_user` and `recorded_at = current_timestamp` (a row cannot be dated back
  before a later one, whose order the ledger reads). No policy allows UPDATE or DELETE, so they change no row whatever
  is granted (superusers aside). _trusted_writer then reads each row for what its writer may vouch for.
  Run on a table just created, and by refuse_untrusted_audit_table on one made before rows were attributed, when
  that is all that is wrong with it and the caller can act as its owner (who alone may alter it): its earlier rows
  keep recorded_by null, written before the attribution and read as before (DECISIONS row 81). The caller commits.
  A no-op on the engines without roles.
#}
{% macro _attribute_audit_rows(audit) %}
  {{ return(adapter.dispatch('_attribute_audit_rows', 'dbt_backfill')(audit)) }}
{% endmacro %}

{% macro default___attribute_audit_rows(audit) %}
  {{ return(none) }}
{% endmacro %}

{% macro postgres___attribute_audit_rows(audit) %}
  {# the column first, its default after: existing rows keep null, not the name of whoever ran this #}
  {% do dbt_backfill._execute('alter table ' ~ audit ~ ' add column if not exists recorded_by text; '
      ~ 'alter table ' ~ audit ~ ' alter column recorded_by set default current_user; '
      ~ 'alter table ' ~ audit ~ ' enable row level security; alter table ' ~ audit ~ ' force row level security; '
      ~ 'drop policy if exists dbt_backfill_read on ' ~ audit ~ '; drop policy if exists dbt_backfill_own_rows on ' ~ audit ~ '; '
      ~ 'create policy dbt_backfill_read on ' ~ audit ~ ' for select using (true); '
      ~ 'create policy dbt_backfill_own_rows on ' ~ audit ~ ' for insert with check (recorded_by OPERATOR(pg_catalog.=) current_user '
      ~ 'and recorded_at OPERATOR(pg_catalog.=) current_timestamp)',
      fetch=false) %}
{% endmacro %}
