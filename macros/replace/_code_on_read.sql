{# What reading `relation` would run besides reading it: PostgreSQL's row security (its policies run as whoever
   reads), columns of a type that is neither built in nor the target's own column type (a type's owner chooses
   its output function and its casts), and anything the planner evaluates when it plans a read: an index (a
   partial index's predicate, an expression), extended statistics, and child tables (read with it, each with its
   own). dbt-backfill makes its stages and backups with CREATE TABLE AS: none of these. Spark has none of them;
   DuckDB has virtual generated columns (its leaf). #}
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

{# DuckDB: a virtual generated column is computed on every read, by an expression its table's owner chose, and can
   answer differently to the check and to the insert that follow it (`current_query()` reads which statement asks):
   the replacement reads the source itself inside its transaction (_rows_to_write), not a copy, so such a column is
   refused here. #}
{% macro duckdb___code_on_read(relation, target_relation) %}
  {% set rows = dbt_backfill._execute("select 'generated column ' || column_name from information_schema.columns"
      ~ " where table_schema = " ~ dbt_backfill._sql_literal(relation.schema)
      ~ " and table_name = " ~ dbt_backfill._sql_literal(relation.identifier)
      ~ ((' and table_catalog = ' ~ dbt_backfill._sql_literal(relation.database)) if relation.database else '')
      ~ " and is_generated = 'ALWAYS' order by 1").rows %}
  {% set code = [] %}
  {% for row in rows %}{% do code.append(row[0]) %}{% endfor %}
  {{ return(code) }}
{% endmacro %}
