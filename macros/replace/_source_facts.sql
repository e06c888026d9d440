{# What _check_source judges of each relation, read from the catalog in one statement for all of them (apply checks
   every approved stage before any is read: one statement, not two or three a stage). Returns, in the relations'
   order, {kind, writers, code}:
     kind     'table', 'view', another kind in lower case, or none when the relation is gone;
     writers  roles other than its owner that may write it (INSERT, UPDATE, DELETE, TRUNCATE granted to them or to
              PUBLIC): PostgreSQL's. DuckDB has no roles; Spark's catalog keeps none;
     code     what reading it would run besides reading it: PostgreSQL's row security (its policies run as whoever
              reads), columns of a type that is neither built in nor the target's own column type (a type's owner
              chooses its output function and its casts), and anything the planner evaluates when it plans a read:
              an index (a partial index's predicate, an expression), extended statistics, child tables (read with
              it, each with its own). DuckDB's virtual generated columns: computed on every read, by an expression
              the table's owner chose, they can answer differently to the check and to the insert that follow it
              (`current_query()` reads which statement asks), and the DuckDB replacement reads the source itself
              inside its transaction (_rows_to_write). dbt-backfill makes its stages and backups with CREATE TABLE
              AS: none of these. #}
{% macro _source_facts(relations, target_relation) %}
  {% if not relations %}{{ return([]) }}{% endif %}
  {{ return(adapter.dispatch('_source_facts', 'dbt_backfill')(relations, target_relation)) }}
{% endmacro %}

{# information_schema.tables: the kind only #}
{% macro default___source_facts(relations, target_relation) %}
  {{ return(dbt_backfill._facts_by_position(relations, dbt_backfill._catalog_facts(relations, false))) }}
{% endmacro %}

{% macro duckdb___source_facts(relations, target_relation) %}
  {{ return(dbt_backfill._facts_by_position(relations, dbt_backfill._catalog_facts(relations, true))) }}
{% endmacro %}

{# PostgreSQL reads pg_class: information_schema lists only what the role has a privilege on, and would call another
   role's table gone #}
{% macro postgres___source_facts(relations, target_relation) %}
  {% set named = [] %}
  {% for relation in relations %}
    {% do named.append('(' ~ loop.index0 ~ ', ' ~ dbt_backfill._sql_literal(relation.schema) ~ ', '
                       ~ dbt_backfill._sql_literal(relation.identifier) ~ ')') %}
  {% endfor %}
  {% set rows = dbt_backfill._execute("with bf_named(bf_position, bf_schema, bf_name) as (values " ~ named | join(', ') ~ "),"
      ~ " bf_relation as (select n.bf_position, c.oid, c.relkind, c.relowner, c.relacl, c.relrowsecurity, c.relforcerowsecurity"
      ~ " from bf_named n join pg_catalog.pg_namespace s on s.nspname = n.bf_schema"
      ~ " join pg_catalog.pg_class c on c.relnamespace = s.oid and c.relname = n.bf_name)"
      ~ " select bf_position, 'kind' as fact, relkind::text as said from bf_relation"
      ~ " union all select distinct r.bf_position, 'writers', case when a.grantee = 0 then 'PUBLIC'"
      ~ " else pg_catalog.pg_get_userbyid(a.grantee) end from bf_relation r, pg_catalog.aclexplode(r.relacl) a"
      ~ " where a.grantee <> r.relowner and a.privilege_type in ('INSERT', 'UPDATE', 'DELETE', 'TRUNCATE')"
      ~ " union all select bf_position, 'code', 'row security' from bf_relation where relrowsecurity or relforcerowsecurity"
      ~ " union all select r.bf_position, 'code', 'policy ' || p.polname from bf_relation r join pg_catalog.pg_policy p on p.polrelid = r.oid"
      ~ " union all select r.bf_position, 'code', 'index ' || i.indexrelid::regclass::text from bf_relation r"
      ~ " join pg_catalog.pg_index i on i.indrelid = r.oid"
      ~ " union all select r.bf_position, 'code', 'statistics ' || x.stxnamespace::regnamespace::text || '.' || pg_catalog.quote_ident(x.stxname) from bf_relation r"
      ~ " join pg_catalog.pg_statistic_ext x on x.stxrelid = r.oid"
      ~ " union all select r.bf_position, 'code', 'child table ' || h.inhrelid::regclass::text from bf_relation r"
      ~ " join pg_catalog.pg_inherits h on h.inhparent = r.oid"
      ~ " union all select r.bf_position, 'code', 'column ' || a.attname || ' of type ' || a.atttypid::regtype::text"
      ~ " from bf_relation r join pg_catalog.pg_attribute a on a.attrelid = r.oid join pg_catalog.pg_type t on t.oid = a.atttypid"
      ~ " where a.attnum > 0 and not a.attisdropped and t.typnamespace <> 'pg_catalog'::regnamespace"
      ~ " and a.atttypid not in (select atttypid from pg_catalog.pg_attribute where attrelid = " ~ dbt_backfill._pg_oid(target_relation)
      ~ " and attname = a.attname and attnum > 0 and not attisdropped) order by 1, 2, 3").rows %}
  {% set kinds = {'r': 'table', 'v': 'view', 'm': 'materialized view', 'p': 'partitioned table', 'f': 'foreign table'} %}
  {% set facts = dbt_backfill._facts_by_position(relations, rows) %}
  {% for fact in facts if fact.kind is not none %}
    {% do fact.update({'kind': kinds.get(fact.kind, 'relation of kind ' ~ fact.kind)}) %}
  {% endfor %}
  {{ return(facts) }}
{% endmacro %}

{# Spark: the catalog's own answer (dbt's cache of the schema's relations); nothing else to read #}
{% macro spark___source_facts(relations, target_relation) %}
  {% set facts = [] %}
  {% for relation in relations %}
    {% set found = adapter.get_relation(database=relation.database, schema=relation.schema, identifier=relation.identifier) %}
    {% do facts.append({'kind': found.type if found is not none else none, 'writers': [], 'code': []}) %}
  {% endfor %}
  {{ return(facts) }}
{% endmacro %}

{# The kinds from information_schema.tables, and (generated) DuckDB's virtual generated columns, as rows of
   (position, fact, said). One relation is named by a predicate on the catalog's own columns, which DuckDB applies
   as it lists them (2.2 ms, against 3.6 for a join to a list of one name: the check inside each partition's
   transaction); many by a join to the list of their names: DuckDB tests an `or` of predicates row by row, and 500
   names over a catalog of 2,400 tables took 23 s as an `or`, 0.09 s as a join (issue 57). #}
{% macro _catalog_facts(relations, generated) %}
  {% set string_type = dbt.type_string() %}
  {% set listed, positions, quoted = [], {}, [] %}
  {% for relation in relations %}
    {# each name listed once: the join gives a catalog row once per entry it matches, and `positions` maps it back #}
    {% set schema, name, catalog = dbt_backfill._sql_literals([relation.schema, relation.identifier, relation.database or none]) %}
    {% do quoted.append({'schema': schema, 'name': name, 'catalog': catalog}) %}
    {% set entry = '(' ~ schema ~ ', ' ~ name ~ ', cast(' ~ catalog ~ ' as ' ~ string_type ~ '))' %}
    {% if entry not in listed %}{% do listed.append(entry) %}{% endif %}
    {% do positions.setdefault((relation.schema, relation.identifier), []).append((loop.index0, relation.database)) %}
  {% endfor %}
  {% set by_join = ' join (values ' ~ listed | join(', ') ~ ') as bf_named(bf_schema, bf_name, bf_catalog) on table_schema = bf_schema'
      ~ ' and table_name = bf_name and (bf_catalog is null or table_catalog = bf_catalog)' %}
  {% set kinds, codes = 'information_schema.tables', "information_schema.columns where is_generated = 'ALWAYS'" %}
  {% if relations | length == 1 %}
    {% set only = quoted[0] %}
    {% set named = '(table_schema = ' ~ only.schema ~ ' and table_name = ' ~ only.name
        ~ ((' and table_catalog = ' ~ only.catalog) if relations[0].database else '') ~ ')' %}
    {% set kinds, codes = kinds ~ ' where ' ~ named, codes ~ ' and ' ~ named %}
  {% else %}
    {% set kinds, codes = kinds ~ by_join, 'information_schema.columns' ~ by_join ~ " where is_generated = 'ALWAYS'" %}
  {% endif %}
  {% set found = dbt_backfill._execute("select table_catalog, table_schema, table_name, 'kind' as fact,"
      ~ " case when table_type = 'BASE TABLE' then 'table' else lower(table_type) end as said from " ~ kinds
      ~ ((" union all select table_catalog, table_schema, table_name, 'code', 'generated column ' || column_name from "
          ~ codes) if generated else '')
      ~ " order by 4, 5").rows %}
  {% set rows = [] %}
  {% for row in found %}
    {% for position, database in positions.get((row[1], row[2]), []) if database is none or database == row[0] %}
      {% do rows.append((position, row[3], row[4])) %}
    {% endfor %}
  {% endfor %}
  {{ return(rows) }}
{% endmacro %}

{# Rows of (position, fact, said) as one {kind, writers, code} per relation: a kind only where exactly one was read #}
{% macro _facts_by_position(relations, rows) %}
  {% set facts = [] %}
  {% for relation in relations %}{% do facts.append({'kinds': [], 'writers': [], 'code': []}) %}{% endfor %}
  {% for row in rows %}
    {% do facts[row[0] | int][row[1] ~ ('s' if row[1] == 'kind' else '')].append(row[2]) %}
  {% endfor %}
  {% for fact in facts %}
    {% do fact.update({'kind': fact.kinds[0] if fact.kinds | length == 1 else none}) %}
    {% do fact.pop('kinds') %}
  {% endfor %}
  {{ return(facts) }}
{% endmacro %}
