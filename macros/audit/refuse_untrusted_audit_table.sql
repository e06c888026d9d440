{#
  Refuse an audit table that someone the checks defend against could rewrite (PostgreSQL). Its rows decide whether
  a packet was planned (`planned`, `packet_recorded`), when an approval expires (`building_stages`), and what a
  rollback or a later apply may do (the ledger): an audit table created first by a role that may merely create in
  the stage schema, or one anyone may update, would let that role forge them.
  Trusted to own it: superusers, the database owner, the owner of `target_relation` (the live job, who may write
  the target anyway), the acting role and roles that can act as it. Not the planner, for the
  applier: a table's owner may switch its row security off and write rows in anyone's name, so the planner who
  made it at its first plan hands it to the target's owner (docs/security.md, the roles and grants). No role
  other than those and members of the owner may UPDATE, DELETE or TRUNCATE it, and PUBLIC may not write it at
  all. INSERT granted to named roles (the planner's and the applier's) is allowed, and each row must name the
  role that wrote it (_attribute_audit_rows; _trusted_writer reads each row by its writer). A table made before
  rows were attributed, with nothing else wrong, is brought up to date when the caller can act as its owner: the
  first command its owner runs after the upgrade, reads included, makes that one change (DECISIONS row 81). A
  member of pg_write_all_data may rewrite every table, this one included, and is refused like any other such
  role. Checked once per invocation, table and target; a no-op on the engines without roles.
#}
{% macro refuse_untrusted_audit_table(audit, target_relation=none, targets=none, writing=false, refuse=true) %}
  {{ return(adapter.dispatch('refuse_untrusted_audit_table', 'dbt_backfill')(audit, target_relation, targets, writing, refuse)) }}
{% endmacro %}

{# refuse=false: the problems, in words (none: trusted), refused by nobody, and only a trusted table remembered: for a
   read that only advises (a rollback naming what it leaves downstream), which then passes over a table it cannot
   trust #}
{% macro default__refuse_untrusted_audit_table(audit, target_relation=none, targets=none, writing=false, refuse=true) %}
  {{ return([]) }}
{% endmacro %}

{% macro postgres__refuse_untrusted_audit_table(audit, target_relation=none, targets=none, writing=false, refuse=true) %}
  {% set targets = ([target_relation] if target_relation is not none else []) + (targets or []) %}
  {% set checked = graph.setdefault('dbt_backfill_trusted_audits', {}).setdefault(invocation_id, {}) %}
  {% set key = (audit | string) ~ ' ' ~ targets | map('string') | join(' ') %}
  {% if writing %}
    {# inside the transaction that writes a row: the table is locked first (no DROP, ALTER or CREATE TRIGGER until
       the commit) and checked again, never from the cache: one swapped in since the last check (its schema's owner
       may drop it) would run its trigger as this role, in this transaction #}
    {# a BEGIN first where the caller wrote none (a BEGIN inside a transaction block is only a warning): the lock
       lasts until the caller's commit, which follows every audit row #}
    {% do dbt_backfill._execute('begin', fetch=false) %}
    {% do dbt_backfill._execute('lock table ' ~ audit ~ ' in row exclusive mode', fetch=false) %}
  {% elif checked.get(key) %}
    {{ return(none) }}
  {% endif %}
  {% set names = [] %}
  {% for target in targets %}{% do names.append('pg_catalog.to_regclass(' ~ dbt_backfill._sql_literal(target | string) ~ ')') %}{% endfor %}
  {# the owners of the targets whose trail it holds (one, or every model writing a shared table) #}
  {% set target_owners = "(select pg_catalog.array_agg(c.relowner) from pg_catalog.pg_class c where c.oid OPERATOR(pg_catalog.=) "
      ~ "ANY (ARRAY[" ~ names | join(', ') ~ "]::pg_catalog.regclass[]))" if names else 'null::pg_catalog.oid[]' %}
  {% set query = dbt_backfill._audit_table_problems_query(audit, target_owners) %}
  {% set rows = dbt_backfill._execute(query).rows %}
  {% if not refuse %}
    {# trusted: remembered as a refusing check would remember it, so the ledger read that follows does not ask again #}
    {% if not rows and not writing %}{% do checked.update({key: true}) %}{% endif %}
    {{ return(rows | map(attribute='why') | list) }}
  {% endif %}
  {% if rows | map(attribute='position') | list == [4] and rows[0]['owner'] and not rows[0]['has_column'] and not writing %}
    {% do dbt_backfill._attribute_audit_rows(audit) %}
    {% do dbt_backfill._commit() %}
    {% set rows = dbt_backfill._execute(query).rows %}
  {% endif %}
  {% set problems = rows | map(attribute='why') | list %}
  {% if problems %}
    {% do dbt_backfill._refuse('untrusted_audit_table',
        'the audit table ' ~ dbt_backfill._relation_name(audit) ~ ' can be rewritten by roles the checks defend against: '
        ~ problems | join('; ') ~ '. Its rows decide whether a packet was planned, when an approval expires and what a '
        ~ 'rollback may do. Nothing was done. Have the target\'s owner (or a superuser) own it, and grant only SELECT and '
        ~ 'INSERT to the planner and the applier (docs/security.md, the roles and grants)' ~ ('; any dbt-backfill command its owner runs on this '
        ~ 'model (status included) brings an earlier table up to date' if problems | length == 1 and '(it was made before' in problems[0]
        else '') ~ '.', {'audit_table': dbt_backfill._relation_name(audit),
        'problems': problems}) %}
  {% endif %}
  {% if not writing %}{% do checked.update({key: true}) %}{% endif %}
{% endmacro %}

{# The catalog query behind refuse_untrusted_audit_table (PostgreSQL): one row per problem (position, why), each with
   whether the acting role can act as the table's owner (owner) and whether the table has its recorded_by column
   (has_column). `target_owners`: an array expression of the owners of the targets whose trail it holds. #}
{% macro _audit_table_problems_query(audit, target_owners) %}
  {% set query %}
    with audit as (
      select c.oid, c.relowner, c.relkind, n.nspowner, {{ dbt_backfill._audit_attribution_in_place() }} as attributed,
             exists (select 1 from pg_catalog.pg_attribute a where a.attrelid OPERATOR(pg_catalog.=) c.oid
                     and a.attname OPERATOR(pg_catalog.=) 'recorded_by' and not a.attisdropped) as has_column
      from pg_catalog.pg_class c join pg_catalog.pg_namespace n on n.oid OPERATOR(pg_catalog.=) c.relnamespace
      where c.oid OPERATOR(pg_catalog.=) pg_catalog.to_regclass({{ dbt_backfill._sql_literal(audit | string) }})
    ),
    trusted as (
      select r.oid, (r.rolsuper or r.oid OPERATOR(pg_catalog.=) (select d.datdba from pg_catalog.pg_database d
                       where d.datname OPERATOR(pg_catalog.=) pg_catalog.current_database())
                     or pg_catalog.pg_has_role(r.oid, current_user, 'MEMBER')
                     or exists (select 1 from pg_catalog.unnest({{ target_owners }}) as o(owner)
                                where pg_catalog.pg_has_role(r.oid, o.owner, 'MEMBER'))) as outright,
             r.rolname
      from pg_catalog.pg_roles r
      {# PostgreSQL's predefined roles (pg_write_all_data, ...) act only through their members, who are read here as
         themselves; their oids are below FirstNormalObjectId #}
      where r.oid OPERATOR(pg_catalog.>=) 16384
    ),
    problems as (
      select 1 as position, 'it is owned by ' || t.rolname::pg_catalog.text || ', whom ' || current_user::pg_catalog.text
             || ' does not trust to keep it (not a superuser, the database owner, the target''s owner, nor a role '
             || 'that can act as ' || current_user::pg_catalog.text || ')' as why
      from audit a join trusted t on t.oid OPERATOR(pg_catalog.=) a.relowner
      where not t.outright
      union all
      select 2, 'PUBLIC (every role) may ' || p.privilege
      from audit a cross join (values ('INSERT'), ('UPDATE'), ('DELETE'), ('TRUNCATE')) as p(privilege)
      where pg_catalog.has_table_privilege('public', a.oid, p.privilege)
      union all
      select 3, t.rolname::pg_catalog.text || ' may ' || p.privilege
      from audit a cross join (values ('UPDATE'), ('DELETE'), ('TRUNCATE')) as p(privilege)
      join trusted t on pg_catalog.has_table_privilege(t.oid, a.oid, p.privilege)
      where not t.outright and not pg_catalog.pg_has_role(t.oid, a.relowner, 'MEMBER')
        and not pg_catalog.has_table_privilege('public', a.oid, p.privilege)
      union all
      select 4, 'its rows do not name the roles that wrote them (it was made before rows were attributed, '
             || 'or its row level security was changed since)'
      from audit a where not a.attributed
      union all
      {# what runs, or hides rows, when the trail is written or read: its owner's code, not the package's #}
      select 5, 'it is not a plain table' from audit a where a.relkind OPERATOR(pg_catalog.<>) 'r'
      union all
      select 5, 'it has trigger ' || t.tgname::pg_catalog.text
      from audit a join pg_catalog.pg_trigger t on t.tgrelid OPERATOR(pg_catalog.=) a.oid where not t.tgisinternal
      union all
      select 5, 'it has rule ' || r.rulename::pg_catalog.text
      from audit a join pg_catalog.pg_rewrite r on r.ev_class OPERATOR(pg_catalog.=) a.oid
      union all
      select 5, 'table ' || i.inhrelid::pg_catalog.regclass::pg_catalog.text || ' inherits from it (its rows are read as the trail''s)'
      from audit a join pg_catalog.pg_inherits i on i.inhparent OPERATOR(pg_catalog.=) a.oid
      union all
      select 5, 'it has check constraint ' || k.conname::pg_catalog.text
      from audit a join pg_catalog.pg_constraint k on k.conrelid OPERATOR(pg_catalog.=) a.oid
      where k.contype OPERATOR(pg_catalog.=) 'c'
      union all
      select 5, 'its column ' || t.attname::pg_catalog.text || ' has ' || case when d.oid is not null
             then 'a default of someone''s' else 'a type of someone''s' end
      from audit a join pg_catalog.pg_attribute t on t.attrelid OPERATOR(pg_catalog.=) a.oid and t.attnum OPERATOR(pg_catalog.>) 0
                                                     and not t.attisdropped
      join pg_catalog.pg_type y on y.oid OPERATOR(pg_catalog.=) t.atttypid
      left join pg_catalog.pg_attrdef d on d.adrelid OPERATOR(pg_catalog.=) a.oid and d.adnum OPERATOR(pg_catalog.=) t.attnum
        and pg_catalog.pg_get_expr(d.adbin, d.adrelid) OPERATOR(pg_catalog.<>) 'CURRENT_USER'
      where d.oid is not null or y.typnamespace OPERATOR(pg_catalog.<>) 'pg_catalog'::pg_catalog.regnamespace
      union all
      select 5, 'it has row security policy ' || p.polname::pg_catalog.text || ', not dbt-backfill''s'
      from audit a join pg_catalog.pg_policy p on p.polrelid OPERATOR(pg_catalog.=) a.oid
      where p.polname OPERATOR(pg_catalog.<>) ALL (ARRAY['dbt_backfill_read', 'dbt_backfill_own_rows']::pg_catalog.name[])
    )
    select position, why, (select pg_catalog.pg_has_role(current_user, a.relowner, 'USAGE') from audit a) as owner,
           (select a.has_column from audit a) as has_column
    from problems order by position, why
  {% endset %}
  {{ return(query) }}
{% endmacro %}
