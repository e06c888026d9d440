{#
  What the plan compares to pin a source: a value that changes whenever what `relation` returns changes, compared
  only within one plan on one engine (so it need not be canonical, only faithful and cheap).
  `where`, when given, bounds the read to the rows the builds read (an input window over the input's event_time):
  a row that enters or leaves the window, or changes inside it, changes the state; a row outside it does not.
  Returns {method ('row versions' | 'file listing' | 'content'), row_count, state}.
#}
{% macro source_state(relation, columns, where=none) %}
  {{ return(adapter.dispatch('source_state', 'dbt_backfill')(relation, columns, where)) }}
{% endmacro %}

{% macro default__source_state(relation, columns, where) %}
  {{ exceptions.raise_compiler_error("dbt_backfill.source_state is not implemented for " ~ adapter.type()) }}
{% endmacro %}

{#
  PostgreSQL. A base table's content changes only through new row versions, so its state is the set of visible
  row versions (tableoid, ctid, xmin): an insert, update or delete changes it, nothing is rendered, and it reads at
  about a third of the COPY floor (a sixth of the canonical fingerprint; bench/ P3). A table rewrite (VACUUM FULL,
  CLUSTER) changes it too, which refuses a plan that could have gone ahead: the safe direction.
  A view (or anything else) is read for its content, each row's text hashed: that is what shows a clock_timestamp()
  or random() in a view. pg_catalog.hashtextextended: the built-in takes a bigint seed, so a
  hashtextextended(text, integer) in any schema on the search path would match the literal 0 better.
#}
{% macro postgres__source_state(relation, columns, where) %}
  {% set actual = adapter.get_relation(database=relation.database, schema=relation.schema, identifier=relation.identifier) %}
  {% set method = 'row versions' if actual is not none and actual.is_table else 'content' %}
  {% set hashed = "tableoid::text || ':' || ctid::text || ':' || xmin::text" if method == 'row versions' else 'bf_source::text' %}
  {% set row = dbt_backfill._execute("select cast(count(*) as text) as row_count, cast(coalesce(sum(pg_catalog.hashtextextended("
      ~ hashed ~ ", 0)), 0) as text) as state from " ~ relation ~ " as bf_source"
      ~ (" where " ~ where if where else "")).rows[0] %}
  {{ return({'method': method, 'row_count': row['row_count'] | int, 'state': row['state'] | string}) }}
{% endmacro %}

{# DuckDB: no row versions to read, so the canonical fingerprint of the content (computed in parallel). #}
{% macro duckdb__source_state(relation, columns, where) %}
  {{ return(dbt_backfill._content_state(relation, columns, where)) }}
{% endmacro %}

{#
  Spark. A table of files (parquet, orc, ...) changes only through its files: Spark never rewrites a file in place,
  every write makes files of new names. So its state is the set of files that hold the rows read (path, size and
  modification time, from the file source's `_metadata` column), with their row counts: no value is rendered or
  hashed, only the rows' filter columns are read. A row that enters, leaves or changes within `where` is in a new
  file or took one away; a new file holding only rows outside it is not counted. What it can miss: a file rewritten
  in place by something other than Spark with the same name, size and modification time (a tool that copies files
  keeping their times). What it counts that content would not: a rewrite of unchanged rows (compaction, a
  rewrite from a copy) changes the state, so the approval is refused — the safe direction.
  A view, or a table Spark reads through a Hive SerDe or another source, is read for its content.
#}
{% macro spark__source_state(relation, columns, where) %}
  {% set actual = adapter.get_relation(database=relation.database, schema=relation.schema, identifier=relation.identifier) %}
  {% set layout = dbt_backfill._spark_table_layout(relation) if actual is not none and actual.is_table else {} %}
  {% if (layout.get('provider') or '') | lower not in ('parquet', 'orc', 'json', 'csv', 'avro', 'text') %}
    {{ return(dbt_backfill._content_state(relation, columns, where)) }}
  {% endif %}
  {% set row = dbt_backfill._execute("select cast(coalesce(sum(n), 0) as string) as row_count, coalesce(sha2(concat_ws('|', "
      ~ "array_sort(collect_list(concat_ws(':', file_path, cast(file_size as string), cast(file_modification_time as string), "
      ~ "cast(n as string))))), 256), '') as state from (select _metadata.file_path as file_path, _metadata.file_size as "
      ~ "file_size, _metadata.file_modification_time as file_modification_time, count(*) as n from " ~ relation
      ~ " as bf_source" ~ (" where " ~ where if where else "") ~ " group by 1, 2, 3) as files").rows[0] %}
  {{ return({'method': 'file listing', 'row_count': row['row_count'] | int, 'state': row['state'] | string}) }}
{% endmacro %}

{% macro _content_state(relation, columns, where) %}
  {% set fingerprint = dbt_backfill.fingerprint_relation(relation, columns, where=where) %}
  {{ return({'method': 'content', 'row_count': fingerprint.row_count, 'state': fingerprint.sha256}) }}
{% endmacro %}
