{#
  Inside the caller's transaction: replace one partition of the target with the rows of `source_relation` (a stage
  for apply, a backup for rollback) and refuse — which rolls the transaction back, or where there is none restores
  `undo_from` — unless every step holds. Nothing outside the partition is trusted, and nothing outside it is written:
    1. the rows to write are read once, inside this transaction, into a copy no one else can see (_rows_to_write:
       the source must be a base table; only its rows of this partition are copied), and the copy must equal
       `expected` — a source changed after the caller's checks, or a view that answers differently inside a
       writing transaction, is caught here, on the very rows that will be inserted;
    2. the delete and the insert both carry the partition predicate;
    3. the partition as it now stands must equal `expected` (its row count included);
    0. before any write, nothing may run when the target's rows are deleted or inserted (_hidden_writers: enabled
       triggers and rules, foreign keys that cascade a delete), checked under a lock that keeps new ones out.
  With `commitment` (apply: the approved stage's commitment_digest), the copy must also have that commitment: the
  fingerprint's sum can be made to collide on purpose, the commitment cannot.
  With `keys_outside` (apply: every approved partition value), the rows to write may hold no business key the
  target now holds outside those partitions (_keys_also_outside): the plan's check, made again on the target as
  it is inside the writing transaction.
  `done` names the partitions committed before this one, so the refusal says exactly what state the target is in.
  Returns the fingerprint after.
#}
{% macro _replace_checked(target_relation, source_relation, scope, partition_value, target_columns, expected, reason,
                          expected_as, done_as, done, undo_from=none, source_as='stage',
                          source_expected_as='the approved one', keys_outside=none, commitment=none) %}
  {% set predicate = dbt_backfill._partition_predicate(scope.partition_column, partition_value) %}
  {% set unit = dbt_backfill._write_unit(scope, partition_value) %}
  {% set unchanged_clause = '. Partitions ' ~ done_as ~ ' before it: ' ~ (done | join(', ') or 'none')
                            ~ '; this partition and the rest are unchanged.' %}
  {# the session's path, fixed at the first pin, checked again inside the transaction that writes (PostgreSQL) #}
  {% do dbt_backfill.refuse_unsafe_search_path() %}
  {% set writers = dbt_backfill._hidden_writers(target_relation) %}
  {% if writers %}
    {% do dbt_backfill._refuse('target_has_triggers',
        dbt_backfill._relation_name(target_relation) ~ ' has ' ~ writers | join(', ') ~ ', which run when its rows are '
        ~ 'deleted or inserted and may write outside partition ' ~ partition_value ~ ': a backfill writes the approved '
        ~ 'partitions and nothing else. Nothing of this partition was written' ~ unchanged_clause
        ~ ' Disable or drop them for the backfill.', {'partition': partition_value, 'writers': writers, done_as: done}) %}
  {% endif %}
  {% set rows = dbt_backfill._rows_to_write(source_relation, predicate, target_columns, source_as, partition_value,
                                            unchanged_clause, target_relation, unit) %}
  {% do dbt_backfill._fault_point('after_new_directory') %}
  {# The commitment, where there is one, decides: equal commitments are equal rows, every column, so the fingerprint
     is computed only to say how they differ (one scan, not two, per partition on the way to a write). #}
  {# expected.row_count sets the buckets: rows that are not the approved ones cannot match whatever the count says #}
  {% set committed = dbt_backfill._commitment_in_scope(rows.relation, scope, expected.row_count, partition_value, true)
                     if commitment is not none else none %}
  {% if commitment is none or committed != commitment %}
    {% set read = dbt_backfill._fingerprint_in_scope(rows.relation, scope, partition_value, true) %}
    {% if not dbt_backfill._same_fingerprint(read, expected) %}
      {% do dbt_backfill._refuse(source_as ~ '_changed_in_transaction',
          'the ' ~ source_as ~ ' of partition ' ~ partition_value ~ ', read inside the transaction that writes it, is not '
          ~ source_expected_as ~ ' (sha256 ' ~ expected.sha256[:12] ~ '… expected, ' ~ read.sha256[:12] ~ '… read, '
          ~ read.row_count ~ ' rows): it changed after it was checked. Nothing of this partition was written' ~ unchanged_clause,
          {'partition': partition_value, 'expected': expected, 'actual': read, done_as: done}) %}
    {% endif %}
    {% if commitment is not none %}
      {% do dbt_backfill._refuse(source_as ~ '_commitment_differs',
          'the ' ~ source_as ~ ' of partition ' ~ partition_value ~ ' has the approved fingerprint but not the approved '
          ~ 'commitment (sha256 ' ~ commitment[:12] ~ '… approved, ' ~ committed[:12] ~ '… read): its rows changed after the '
          ~ 'approval where the fingerprint does not look (a column excluded from it, or rows crafted to collide with it). '
          ~ 'Nothing of this partition was written' ~ unchanged_clause ~ ' Plan again.',
          {'partition': partition_value, 'expected': commitment, 'actual': committed, done_as: done}) %}
    {% endif %}
  {% endif %}
  {% if keys_outside is not none %}
    {% set twice = dbt_backfill._keys_also_outside(rows.relation, target_relation, scope, keys_outside, expected.row_count) %}
    {% if twice %}
      {% set described = [] %}
      {% for found in twice %}{% do described.append(found.key ~ ' (also in ' ~ found.also_in ~ ')') %}{% endfor %}
      {% do dbt_backfill._refuse('key_in_two_partitions',
          'writing partition ' ~ partition_value ~ ' would publish business key(s) the target now also holds outside the '
          ~ 'approved partitions: ' ~ described | join(', ') ~ '. They were written there after the plan (the live job?): '
          ~ 'the approved stage would hold them a second time. Nothing of this partition was written' ~ unchanged_clause
          ~ ' Plan again.', {'partition': partition_value, 'keys': twice, done_as: done}) %}
    {% endif %}
  {% endif %}
  {% do dbt_backfill.replace_partition(target_relation, rows.relation, predicate, target_columns, unit) %}
  {% do dbt_backfill._fault_point('after_swap_before_fingerprint') %}
  {% if rows.copied and not rows.keep %}
    {% do dbt_backfill._forget_columns(rows.relation) %}
    {% do dbt_backfill._execute('drop table ' ~ rows.relation, fetch=false) %}
  {% endif %}
  {% set after = dbt_backfill._fingerprint_in_scope(target_relation, scope, partition_value, true) %}
  {% set after_differs = not dbt_backfill._same_fingerprint(after, expected) %}
  {% if not after_differs and commitment is not none and not rows.copied %}
    {# no private copy (Spark's rollback): the target now reads the backup's directory, so what it reads is checked itself #}
    {% set after_differs = dbt_backfill._commitment_in_scope(target_relation, scope, after.row_count, partition_value, true) != commitment %}
  {% endif %}
  {% if after_differs %}
    {% set undone = dbt_backfill.undo_replacement(target_relation, undo_from, scope, partition_value, target_columns) %}
    {% do dbt_backfill._refuse(reason,
        'partition ' ~ partition_value ~ ' would not equal ' ~ expected_as ~ ' (sha256 ' ~ expected.sha256[:12] ~ '… expected, '
        ~ after.sha256[:12] ~ '… now): ' ~ undone ~ '. Partitions ' ~ done_as ~ ' before it: ' ~ (done | join(', ') or 'none')
        ~ '; the partitions after it are unchanged.',
        {'partition': partition_value, 'expected': expected, 'actual': after, done_as: done}) %}
  {% endif %}
  {{ return(after) }}
{% endmacro %}

{#
  The rows a replacement inserts: {relation, copied, keep}. The source is checked first (_check_source). PostgreSQL
  and DuckDB: its rows of the partition are copied, inside the caller's transaction, into a table created and
  dropped in that transaction — invisible to every other session, so what is fingerprinted is exactly what is
  inserted.
  Spark has no transaction to hide a copy in, so the copy is the new directory itself: `<stage>_w`, an external
  table like the target rooted at `<target location>/_backfill/<stage>_w/<time>`, gets the stage's rows of the partition
  by one static INSERT OVERWRITE ... PARTITION; the caller fingerprints it there and then points the target's
  partition at it (replace_partition). It is kept (keep): the target reads its directory, and clean finds the
  directory through it. A rollback's source is a backup, whose partition is the old directory itself: it is
  pointed at again as it is, nothing copied (copied false: the caller checks what the target then reads, commitment
  included, and points back on a mismatch).
#}
{% macro _rows_to_write(source_relation, partition_predicate, column_names, source_as, partition_value, unchanged_clause,
                        target_relation, unit) %}
  {% do dbt_backfill._check_source(source_relation, target_relation, source_as, partition_value, unchanged_clause) %}
  {{ return(adapter.dispatch('_rows_to_write', 'dbt_backfill')(source_relation, partition_predicate, column_names,
                                                               target_relation, unit, source_as)) }}
{% endmacro %}

{% macro default___rows_to_write(source_relation, partition_predicate, column_names, target_relation, unit, source_as) %}
  {% set copy = api.Relation.create(database=source_relation.database, schema=source_relation.schema,
                                    identifier=source_relation.identifier ~ '_w', type='table') %}
  {% set columns = [] %}
  {% for name in column_names %}{% do columns.append(adapter.quote(name)) %}{% endfor %}
  {% do dbt_backfill._forget_columns(copy) %}
  {% do dbt_backfill._execute('drop table if exists ' ~ copy, fetch=false) %}
  {% do dbt_backfill._execute('create table ' ~ copy ~ ' as select ' ~ columns | join(', ') ~ ' from ' ~ source_relation
                              ~ ' where ' ~ partition_predicate, fetch=false) %}
  {{ return({'relation': copy, 'copied': true, 'keep': false}) }}
{% endmacro %}

{% macro spark___rows_to_write(source_relation, partition_predicate, column_names, target_relation, unit, source_as) %}
  {% if source_as == 'backup' %}
    {{ return({'relation': source_relation, 'copied': false, 'keep': true}) }}
  {% endif %}
  {% set written = api.Relation.create(database=source_relation.database, schema=source_relation.schema,
                                       identifier=source_relation.identifier ~ '_w', type='table') %}
  {# a directory of its own per attempt, never one written before: a session that stays open keeps the file listing
     of every directory it read, and would list a rewritten one stale. An earlier attempt's directory (a killed
     apply, or one rolled back) goes first, unless the target reads it. #}
  {% if adapter.get_relation(database=written.database, schema=written.schema, identifier=written.identifier) is not none %}
    {% do dbt_backfill._spark_release_directory(written, target_relation, unit, unit.root) %}
  {% endif %}
  {% do dbt_backfill._spark_external_like(written, target_relation, dbt_backfill._backfill_directory(unit, written)
      ~ '/' ~ modules.datetime.datetime.utcnow().strftime('%Y%m%dT%H%M%S%f')) %}
  {# named, the partition column out (the static partition spec gives its value): the stage's order need not be the target's #}
  {% set data_columns = [] %}
  {% for name in column_names if name | lower != unit.column | lower %}{% do data_columns.append(adapter.quote(name)) %}{% endfor %}
  {% do dbt_backfill._execute('insert overwrite table ' ~ written ~ ' ' ~ dbt_backfill._spark_partition_spec(unit)
      ~ ' (' ~ data_columns | join(', ') ~ ') select ' ~ data_columns | join(', ') ~ ' from ' ~ source_relation
      ~ ' where ' ~ partition_predicate, fetch=false) %}
  {# an empty build writes no file; the partition must still exist, with a directory of its own, to be pointed at #}
  {% do dbt_backfill._execute('alter table ' ~ written ~ ' add if not exists ' ~ dbt_backfill._spark_partition_spec(unit), fetch=false) %}
  {{ return({'relation': written, 'copied': true, 'keep': true}) }}
{% endmacro %}

{# Spark: where dbt-backfill writes `relation`'s directory: under the target's own location, so the data stays
   with the table it belongs to, in `_backfill/` (Spark's file listing and partition discovery skip names that
   start with `_`). #}
{% macro _backfill_directory(unit, relation) %}
  {% if not unit.root %}
    {% do dbt_backfill._fail('the target\'s location is unknown: a Spark write needs it. The target is unchanged.') %}
  {% endif %}
  {{ return(unit.root.rstrip('/') ~ '/_backfill/' ~ relation.identifier) }}
{% endmacro %}

{#
  Before a stage or backup is read at all by apply or rollback — reading is enough to run someone else's code as
  the applier: a view's functions, a row-security policy's, a type's — refuse unless it is a base table (not a view,
  whose answer can also depend on who asks and when), no role but its owner may write it (_other_writers), and
  reading it runs no code its owner chose (_code_on_read).
#}
{% macro _check_source(source_relation, target_relation, source_as, partition_value, unchanged_clause) %}
  {# a stage is the plan's, and a new plan builds another; a backup is the apply's, and nothing else holds its rows #}
  {% set made, next = ('the table the plan built', ' Plan again.') if source_as == 'stage'
      else ('the table the apply made', ' It is not restored from: find out who replaced it before anyone does.') %}
  {% set kind = adapter.dispatch('_relation_kind', 'dbt_backfill')(source_relation) %}
  {% if kind != 'table' %}
    {% do dbt_backfill._refuse(source_as ~ '_not_a_table',
        'the ' ~ source_as ~ ' of partition ' ~ partition_value ~ ', ' ~ dbt_backfill._relation_name(source_relation) ~ ', is '
        ~ (('a ' ~ kind) if kind else 'gone') ~ ', not ' ~ made ~ ': someone replaced it. '
        ~ 'Nothing of this partition was written' ~ unchanged_clause ~ next,
        {'partition': partition_value, 'relation': dbt_backfill._relation_ref(source_relation)}) %}
  {% endif %}
  {% set other_writers = dbt_backfill._other_writers(source_relation) %}
  {% if other_writers %}
    {% do dbt_backfill._refuse(source_as ~ '_writable_by_others',
        'the ' ~ source_as ~ ' of partition ' ~ partition_value ~ ', ' ~ dbt_backfill._relation_name(source_relation) ~ ', can be '
        ~ 'written by ' ~ other_writers | join(', ') ~ ', not only by its owner: what was approved is only as safe as who can '
        ~ 'write it. Revoke their INSERT, UPDATE, DELETE and TRUNCATE on it (and the default privileges of the stage '
        ~ 'schema that granted them), or plan again. Nothing of this partition was written' ~ unchanged_clause,
        {'partition': partition_value, 'writers': other_writers}) %}
  {% endif %}
  {% set code = adapter.dispatch('_code_on_read', 'dbt_backfill')(source_relation, target_relation) %}
  {% if code %}
    {% do dbt_backfill._refuse(source_as ~ '_runs_code_on_read',
        'the ' ~ source_as ~ ' of partition ' ~ partition_value ~ ', ' ~ dbt_backfill._relation_name(source_relation) ~ ', has '
        ~ code | join(', ') ~ ': reading it would run code its owner chose, with the applier\'s privileges. It was not '
        ~ 'read. Nothing of this partition was written' ~ unchanged_clause ~ next,
        {'partition': partition_value, 'code': code}) %}
  {% endif %}
{% endmacro %}

{# Why reading `relation` is not safe, as _check_source judges it, without refusing: [] when it is a base table only
   its owner may write and whose read runs no code. clean and rollback read a backup only to compare it with the
   target; one they cannot read safely they keep, or refuse to act on. #}
{% macro _unsafe_to_read(relation, target_relation) %}
  {% set kind = adapter.dispatch('_relation_kind', 'dbt_backfill')(relation) %}
  {% if kind != 'table' %}{{ return([('a ' ~ kind) if kind else 'gone']) }}{% endif %}
  {% set unreadable = adapter.dispatch('_not_readable', 'dbt_backfill')(relation) %}
  {% if unreadable %}{{ return([unreadable]) }}{% endif %}
  {% set reasons = [] %}
  {% set writers = dbt_backfill._other_writers(relation) %}
  {% if writers %}{% do reasons.append('writable by ' ~ writers | join(', ')) %}{% endif %}
  {% do reasons.extend(adapter.dispatch('_code_on_read', 'dbt_backfill')(relation, target_relation)) %}
  {{ return(reasons) }}
{% endmacro %}

{# Why this role may not read `relation` (PostgreSQL: no SELECT on it, as a planner on an applier's backup), or none. #}
{% macro default___not_readable(relation) %}
  {{ return(none) }}
{% endmacro %}

{% macro postgres___not_readable(relation) %}
  {% set row = dbt_backfill._execute("select pg_catalog.has_table_privilege(" ~ dbt_backfill._pg_oid(relation)
      ~ ", 'SELECT') as readable, current_user as reader").rows[0] %}
  {{ return(none if row['readable'] else 'not readable by ' ~ row['reader'] ~ ' (no SELECT on it)') }}
{% endmacro %}

{# 'table', 'view', another kind in lower case, or none when the relation is gone. PostgreSQL reads pg_class:
   information_schema lists only what the role has a privilege on, and would call another role's table gone. #}
{% macro postgres___relation_kind(relation) %}
  {% set found = dbt_backfill._execute("select c.relkind from pg_catalog.pg_class c where c.oid = "
      ~ dbt_backfill._pg_oid(relation)).rows %}
  {% if found | length != 1 %}{{ return(none) }}{% endif %}
  {{ return({'r': 'table', 'v': 'view', 'm': 'materialized view', 'p': 'partitioned table', 'f': 'foreign table'}
            .get(found[0][0], 'relation of kind ' ~ found[0][0])) }}
{% endmacro %}

{% macro default___relation_kind(relation) %}
  {% set found = dbt_backfill._execute('select table_type from information_schema.tables where table_schema = '
      ~ dbt_backfill._sql_literal(relation.schema) ~ ' and table_name = ' ~ dbt_backfill._sql_literal(relation.identifier)
      ~ ((' and table_catalog = ' ~ dbt_backfill._sql_literal(relation.database)) if relation.database else '')).rows %}
  {% if found | length != 1 %}{{ return(none) }}{% endif %}
  {{ return('table' if found[0][0] == 'BASE TABLE' else found[0][0] | lower) }}
{% endmacro %}

{% macro spark___relation_kind(relation) %}
  {% set found = adapter.get_relation(database=relation.database, schema=relation.schema, identifier=relation.identifier) %}
  {{ return(found.type if found is not none else none) }}
{% endmacro %}

{# What reading `relation` would run besides reading it: PostgreSQL's row security (its policies run as whoever
   reads), columns of a type that is neither built in nor the target's own column type (a type's owner chooses
   its output function and its casts), and anything the planner evaluates when it plans a read: an index (a
   partial index's predicate, an expression), extended statistics, and child tables (read with it, each with its
   own). dbt-backfill makes its stages and backups with CREATE TABLE AS: none of these. DuckDB and Spark have
   none of them. #}
{% macro default___code_on_read(relation, target_relation) %}
  {{ return([]) }}
{% endmacro %}

{% macro postgres___code_on_read(relation, target_relation) %}
  {% set oid = dbt_backfill._pg_oid(relation) %}
  {% set target_oid = dbt_backfill._pg_oid(target_relation) %}
  {% set rows = dbt_backfill._execute("select 'row security' from pg_catalog.pg_class where oid = " ~ oid
      ~ " and (relrowsecurity or relforcerowsecurity)"
      ~ " union all select 'policy ' || polname from pg_catalog.pg_policy where polrelid = " ~ oid
      ~ " union all select 'index ' || indexrelid::regclass::text from pg_catalog.pg_index where indrelid = " ~ oid
      ~ " union all select 'statistics ' || stxname from pg_catalog.pg_statistic_ext where stxrelid = " ~ oid
      ~ " union all select 'child table ' || inhrelid::regclass::text from pg_catalog.pg_inherits where inhparent = " ~ oid
      ~ " union all select 'column ' || a.attname || ' of type ' || a.atttypid::regtype::text from pg_catalog.pg_attribute a"
      ~ " join pg_catalog.pg_type t on t.oid = a.atttypid where a.attrelid = " ~ oid ~ " and a.attnum > 0 and not a.attisdropped"
      ~ " and t.typnamespace <> 'pg_catalog'::regnamespace and a.atttypid not in (select atttypid from pg_catalog.pg_attribute"
      ~ " where attrelid = " ~ target_oid ~ " and attname = a.attname and attnum > 0 and not attisdropped) order by 1").rows %}
  {% set code = [] %}
  {% for row in rows %}{% do code.append(row[0]) %}{% endfor %}
  {{ return(code) }}
{% endmacro %}

{# Roles other than its owner that may write `relation` (INSERT, UPDATE, DELETE, TRUNCATE granted to them or to
   PUBLIC): PostgreSQL. A stage or backup is only as trustworthy as who can write it. DuckDB has no roles; Spark's
   catalog keeps none. #}
{% macro _other_writers(relation) %}
  {{ return(adapter.dispatch('_other_writers', 'dbt_backfill')(relation)) }}
{% endmacro %}

{% macro default___other_writers(relation) %}
  {{ return([]) }}
{% endmacro %}

{% macro postgres___other_writers(relation) %}
  {% set rows = dbt_backfill._execute("select distinct case when a.grantee = 0 then 'PUBLIC' else pg_catalog.pg_get_userbyid(a.grantee) end "
      ~ "from pg_catalog.pg_class c join pg_catalog.pg_namespace n on n.oid = c.relnamespace, pg_catalog.aclexplode(c.relacl) a "
      ~ "where n.nspname = " ~ dbt_backfill._sql_literal(relation.schema) ~ " and c.relname = " ~ dbt_backfill._sql_literal(relation.identifier)
      ~ " and a.grantee <> c.relowner and a.privilege_type in ('INSERT', 'UPDATE', 'DELETE', 'TRUNCATE') order by 1").rows %}
  {% set writers = [] %}
  {% for row in rows %}{% do writers.append(row[0]) %}{% endfor %}
  {{ return(writers) }}
{% endmacro %}

{# What runs when the target's rows are deleted or inserted besides the statement itself, as "trigger x on t",
   "check constraint y on t", ...: PostgreSQL's enabled user triggers and rules, foreign keys of other tables whose
   ON DELETE cascades or sets values, CHECK constraints (the table's, or its columns' domains') that call a function
   that is not built in (a CHECK may call a volatile function, which may write), indexes whose expression or
   predicate does (evaluated on every insert), and row security (its policies run as the applier, and may hide
   rows from the delete) — on the table and on every table that inherits from it (partitions included). Read before the
   partition's first write, after taking the table (and its partitions) in ROW EXCLUSIVE mode for the rest of the
   transaction (what its DELETE takes anyway): CREATE TRIGGER, ENABLE TRIGGER, a new constraint or foreign key,
   CREATE RULE, CREATE POLICY and ALTER TABLE ... ROW LEVEL SECURITY all wait for it, so none can appear before the
   commit. DuckDB and Spark have none of these. #}
{% macro _hidden_writers(target_relation) %}
  {{ return(adapter.dispatch('_hidden_writers', 'dbt_backfill')(target_relation)) }}
{% endmacro %}

{% macro default___hidden_writers(target_relation) %}
  {{ return([]) }}
{% endmacro %}

{% macro postgres___hidden_writers(target_relation) %}
  {% do dbt_backfill._execute('lock table ' ~ target_relation ~ ' in row exclusive mode', fetch=false) %}
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

{# PostgreSQL: a subquery giving the oid of `relation` in pg_class, by its schema and name as literals (the catalog
   queries above read one relation's triggers, policies and columns by it). #}
{% macro _pg_oid(relation) %}
  {{ return("(select c.oid from pg_catalog.pg_class c join pg_catalog.pg_namespace n on n.oid = c.relnamespace where n.nspname = "
      ~ dbt_backfill._sql_literal(relation.schema) ~ " and c.relname = " ~ dbt_backfill._sql_literal(relation.identifier) ~ ")") }}
{% endmacro %}
