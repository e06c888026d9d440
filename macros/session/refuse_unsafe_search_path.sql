{#
  Refuse to work in a session whose search_path names a schema where a role that cannot already act as this one
  may create objects. PostgreSQL resolves every function, operator and type name through the search_path and
  prefers the closest match in any schema on it (CVE-2018-1058): `=` on a varchar partition column, `max` of a
  varchar watermark or `count` of an integer find a better match in such a schema than the built-in does, so its
  owner's code would decide which rows a DELETE removes, what a check sees and whether a refusal fires, with this
  role's privileges. Naming pg_catalog in every statement cannot close that (dbt's own catalog queries name
  neither), so the session is refused where the hole exists.

  The session checked is the session used: the path is first fixed to the schemas it resolves to now
  (`pg_catalog`, then current_schemas: "$user" only if that schema exists, a schema only if the session may use
  it), and the check reads that fixed path. A schema created or granted later ("$user" made while apply waits for a
  lock, USAGE granted on a schema named long ago) is never searched in this session. The check also reads the
  schemas the setting names that the session cannot use today: whoever may create there is refused too.

  Trusted to create on the path: superusers, the database owner (pg_database_owner), and roles that are members of
  the current role (they can act as it already). Anyone else, PUBLIC included, is not.
  Called first by every operation on PostgreSQL (pin_session, and those that do not pin), and again inside each
  transaction that writes the target (_replace_checked); a no-op elsewhere.
#}
{% macro refuse_unsafe_search_path() %}
  {{ return(adapter.dispatch('refuse_unsafe_search_path', 'dbt_backfill')()) }}
{% endmacro %}

{% macro default__refuse_unsafe_search_path() %}
  {{ return(none) }}
{% endmacro %}

{# Every name in the statement is pg_catalog's, its types included, and its operators are named with OPERATOR(): it
   runs before the session is known to be safe. A schema is unsafe while someone untrusted may create in it, and
   after that while it still holds a function, operator or type they own (revoking CREATE leaves them in place). #}
{% macro postgres__refuse_unsafe_search_path() %}
  {% set named_path = dbt_backfill._current_setting('search_path') %}
  {% do dbt_backfill._fix_search_path() %}
  {% set trusted %}
    (r.rolsuper or r.rolname OPERATOR(pg_catalog.=) 'pg_database_owner'::pg_catalog.name
     or r.oid OPERATOR(pg_catalog.=) (select d.datdba from pg_catalog.pg_database d
                                      where d.datname OPERATOR(pg_catalog.=) pg_catalog.current_database())
     or pg_catalog.pg_has_role(r.oid, current_user, 'MEMBER'))
  {% endset %}
  {% set query %}
    with named as (
      select pg_catalog.btrim(item, ' ') as item, position
      from pg_catalog.regexp_split_to_table({{ dbt_backfill._sql_literal(named_path) }}::pg_catalog.text, ',') with ordinality as s(item, position)
    ),
    path as (
      select n.oid, n.nspname, p.position
      from pg_catalog.unnest(pg_catalog.current_schemas(false)) with ordinality as p(nspname, position)
      join pg_catalog.pg_namespace n on n.nspname OPERATOR(pg_catalog.=) p.nspname
      union
      {# named but not usable today (no USAGE): not searched now, but refused all the same when someone untrusted
         may create there; the position after the usable ones #}
      select n.oid, n.nspname, 1000 OPERATOR(pg_catalog.+) named.position
      from named join pg_catalog.pg_namespace n
        on n.nspname OPERATOR(pg_catalog.=) (case when named.item OPERATOR(pg_catalog.=) '"$user"' or named.item OPERATOR(pg_catalog.=) '$user'
                                                  then current_user::pg_catalog.text
                                                  else pg_catalog.btrim(named.item, '"') end)
      where not pg_catalog.has_schema_privilege(n.oid, 'USAGE')
    ),
    untrusted as (
      select path.nspname, path.position, 'may create: ' || r.rolname::pg_catalog.text as why
      from path join pg_catalog.pg_roles r on pg_catalog.has_schema_privilege(r.oid, path.oid, 'CREATE')
      where not {{ trusted }} and not pg_catalog.has_schema_privilege('public', path.oid, 'CREATE')
      union all
      select path.nspname, path.position, 'may create: PUBLIC (every role)'
      from path where pg_catalog.has_schema_privilege('public', path.oid, 'CREATE')
      union all
      select path.nspname, path.position, 'holds ' || o.kind || ' owned by ' || r.rolname::pg_catalog.text
      from path
      join (select pronamespace as nsp, proowner as owner, 'functions' as kind from pg_catalog.pg_proc
            union all select oprnamespace, oprowner, 'operators' from pg_catalog.pg_operator
            union all select typnamespace, typowner, 'types' from pg_catalog.pg_type) o on o.nsp OPERATOR(pg_catalog.=) path.oid
      join pg_catalog.pg_roles r on r.oid OPERATOR(pg_catalog.=) o.owner
      where not {{ trusted }}
    )
    select nspname::pg_catalog.text as schema_name,
           pg_catalog.string_agg(distinct why, ', ') as roles,
           {{ dbt_backfill._sql_literal(named_path) }}::pg_catalog.text as search_path,
           current_user::pg_catalog.text as acting_role
    from untrusted
    group by nspname, position
    order by position
  {% endset %}
  {% set unsafe = dbt_backfill._execute(query).rows %}
  {% if unsafe %}
    {% set named = [] %}
    {% for row in unsafe %}{% do named.append('"' ~ row['schema_name'] ~ '" (' ~ row['roles'] ~ ')') %}{% endfor %}
    {% do dbt_backfill._refuse('unsafe_search_path',
        'the search_path of this session (' ~ unsafe[0]['search_path'] ~ ') names schema(s) where roles that cannot '
        ~ 'act as ' ~ unsafe[0]['acting_role'] ~ ' may create functions and operators, or have: ' ~ named | join(', ') ~ '. One '
        ~ 'of them could stand in for a built-in in the checks and writes of this backfill, with the privileges of '
        ~ unsafe[0]['acting_role'] ~ ' (PostgreSQL CVE-2018-1058). Nothing was done. Take the schema off the role\'s '
        ~ 'search_path (the profile\'s search_path, ALTER ROLE ... SET search_path), or revoke CREATE on it and drop what '
        ~ 'they created there.',
        {'schemas': unsafe | map(attribute='schema_name') | list}) %}
  {% endif %}
{% endmacro %}

{# Set the session's search_path to what it resolves to now, pg_catalog first: current_schemas(false) names only
   schemas that exist and that the session may use (no "$user" before that schema exists). One statement, so there
   is no moment between reading the path and setting it. Kept for the rest of the session (set_config(..., false)). #}
{% macro _fix_search_path() %}
  {% do dbt_backfill._execute("select pg_catalog.set_config('search_path', pg_catalog.concat_ws(', ', 'pg_catalog', "
      ~ "(select pg_catalog.string_agg(pg_catalog.quote_ident(p.nspname), ', ' order by p.position) "
      ~ "from pg_catalog.unnest(pg_catalog.current_schemas(false)) with ordinality as p(nspname, position) "
      ~ "where p.nspname OPERATOR(pg_catalog.<>) 'pg_catalog')), false)") %}
{% endmacro %}
