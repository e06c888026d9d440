{# What runs when the target's rows are deleted or inserted besides the statement itself, as "trigger x on t",
   "check constraint y on t", ...: PostgreSQL's enabled user triggers and rules, foreign keys of other tables whose
   ON DELETE cascades or sets values, CHECK constraints (the table's, or its columns' domains') that call a function
   that is not built in (a CHECK may call a volatile function, which may write), indexes whose expression or
   predicate does (evaluated on every insert), and row security (its policies run as the applier, and may hide
   rows from the delete) — on the table and on every table that inherits from it (partitions included). Read before the
   partition's first write, in a transaction that holds the table (and its partitions) in SHARE ROW EXCLUSIVE mode
   since it began (_begin_writing): CREATE TRIGGER, ENABLE TRIGGER, a new constraint or foreign key, CREATE RULE,
   CREATE POLICY and ALTER TABLE ... ROW LEVEL SECURITY all wait for it, so none can appear before the commit. DuckDB and Spark have none of these. #}
{% macro _hidden_writers(target_relation) %}
  {{ return(adapter.dispatch('_hidden_writers', 'dbt_backfill')(target_relation)) }}
{% endmacro %}

{% macro default___hidden_writers(target_relation) %}
  {{ return([]) }}
{% endmacro %}

{% macro postgres___hidden_writers(target_relation) %}
  {% set table = dbt_backfill._pg_oid(target_relation) %}
  {# an expression (a constraint's, an index's) that may run code someone chose: it depends on a function or an
     operator that is not built in, or calls a built-in function that runs the SQL text it is given (the *_to_xml
     family; a dependency on a built-in is not recorded, so its text is read) #}
  {% set runs_code = "(exists (select from pg_catalog.pg_depend d where d.classid = {classid} and d.objid = {objid} and ("
      ~ "(d.refclassid = 'pg_catalog.pg_proc'::regclass and exists (select from pg_catalog.pg_proc p where p.oid = d.refobjid"
      ~ " and p.pronamespace <> 'pg_catalog'::regnamespace)) or (d.refclassid = 'pg_catalog.pg_operator'::regclass and"
      ~ " exists (select from pg_catalog.pg_operator o where o.oid = d.refobjid and o.oprnamespace <> 'pg_catalog'::regnamespace))))"
      ~ " or {definition} ~* '(query|cursor|table|schema|database)_to_xml')" %}
  {% set constraint_runs_code = runs_code.format(classid="'pg_catalog.pg_constraint'::regclass", objid='con.oid',
                                                 definition='pg_catalog.pg_get_constraintdef(con.oid)') %}
  {% set index_runs_code = runs_code.format(classid="'pg_catalog.pg_class'::regclass", objid='i.indexrelid',
                                            definition='pg_catalog.pg_get_indexdef(i.indexrelid)') %}
  {# the table and every table that inherits from it, declarative partitions included (pg_inherits holds both) #}
  {% set rows = dbt_backfill._execute("with recursive tree(relid) as (select " ~ table ~ " union select i.inhrelid from "
      ~ "pg_catalog.pg_inherits i join tree on i.inhparent = tree.relid) "
      ~ "select 'trigger ' || tgname || ' on ' || tgrelid::regclass::text from pg_catalog.pg_trigger"
      ~ " where not tgisinternal and tgenabled <> 'D' and tgrelid in (select relid from tree)"
      ~ " union all select 'rule ' || rulename || ' on ' || ev_class::regclass::text from pg_catalog.pg_rewrite"
      ~ " where ev_class in (select relid from tree) and rulename <> '_RETURN' and ev_enabled <> 'D'"
      ~ " union all select 'foreign key ' || conname || ' of ' || conrelid::regclass::text from pg_catalog.pg_constraint"
      ~ " where contype = 'f' and confdeltype in ('c', 'n', 'd') and confrelid in (select relid from tree)"
      ~ " union all select 'row security on ' || oid::regclass::text from pg_catalog.pg_class"
      ~ " where oid in (select relid from tree) and (relrowsecurity or relforcerowsecurity)"
      ~ " union all select 'check constraint ' || con.conname || ' on ' || con.conrelid::regclass::text from pg_catalog.pg_constraint con"
      ~ " where con.contype = 'c' and con.conrelid in (select relid from tree) and " ~ constraint_runs_code
      ~ " union all select 'check constraint ' || con.conname || ' of domain ' || con.contypid::regtype::text"
      ~ " || ' (column ' || a.attname || ')' from pg_catalog.pg_attribute a join pg_catalog.pg_constraint con on con.contypid = a.atttypid"
      ~ " where a.attrelid = " ~ table ~ " and a.attnum > 0 and not a.attisdropped and " ~ constraint_runs_code
      ~ " union all select 'index ' || i.indexrelid::regclass::text from pg_catalog.pg_index i"
      ~ " where i.indrelid in (select relid from tree) and " ~ index_runs_code
      ~ " order by 1").rows %}
  {% set writers = [] %}
  {% for row in rows %}{% do writers.append(row[0]) %}{% endfor %}
  {{ return(writers) }}
{% endmacro %}
