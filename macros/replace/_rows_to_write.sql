{#
  The rows a replacement inserts: {relation, copied, keep}. The source is checked first (_check_source). PostgreSQL:
  its rows of the partition are copied, inside the caller's transaction, into a table created and dropped in that
  transaction — invisible to every other session, so what is fingerprinted is exactly what is inserted (each of
  PostgreSQL's statements reads the data as committed when it starts). DuckDB: the source itself, read in one
  snapshot (its leaf).
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
  {{ return((dbt_backfill._format_leaf('_rows_to_write', unit.format) or adapter.dispatch('_rows_to_write', 'dbt_backfill'))(source_relation, partition_predicate, column_names,
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

{# DuckDB: a transaction reads one snapshot of the database from its start to its commit (snapshot isolation), and no
   other process can write the file while this one holds it open. So the source's rows of the partition, read twice
   inside the partition's transaction (the commitment, then the insert), are the same rows both times: the copy
   would be a second copy of them. `copied`: what was checked is what is inserted; `keep`: the source is not ours to
   drop. (Per partition this saves a drop, a create-as-select of its rows, a column listing and a drop: issue 57.) #}
{% macro duckdb___rows_to_write(source_relation, partition_predicate, column_names, target_relation, unit, source_as) %}
  {{ return({'relation': source_relation, 'copied': true, 'keep': true}) }}
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
