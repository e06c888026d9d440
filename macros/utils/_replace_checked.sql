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
    4. nothing on the target may write elsewhere when it is written (_hidden_writers: triggers and rules).
  With `keys_outside` (apply: every approved partition value), the rows to write may hold no business key the
  target now holds outside those partitions (_keys_also_outside): the plan's check, made again on the target as
  it is inside the writing transaction.
  `done` names the partitions committed before this one, so the refusal says exactly what state the target is in.
  Returns the fingerprint after.
#}
{% macro _replace_checked(target_relation, source_relation, scope, partition_value, target_columns, expected, reason,
                          expected_as, done_as, done, undo_from=none, source_as='stage',
                          source_expected_as='the approved one', keys_outside=none) %}
  {% set predicate = dbt_backfill._partition_predicate(scope.partition_column, partition_value) %}
  {% set unchanged_clause = '. Partitions ' ~ done_as ~ ' before it: ' ~ (done | join(', ') or 'none')
                            ~ '; this partition and the rest are unchanged.' %}
  {% set rows = dbt_backfill._rows_to_write(source_relation, predicate, target_columns, source_as, partition_value) %}
  {% if rows.copied %}
    {% set read = dbt_backfill._fingerprint_in_scope(rows.relation, scope, partition_value, true) %}
    {% if not dbt_backfill._same_fingerprint(read, expected) %}
      {% do dbt_backfill._refuse(source_as ~ '_changed_in_transaction',
          'the ' ~ source_as ~ ' of partition ' ~ partition_value ~ ', read inside the transaction that writes it, is not '
          ~ source_expected_as ~ ' (sha256 ' ~ expected.sha256[:12] ~ '… expected, ' ~ read.sha256[:12] ~ '… read, '
          ~ read.row_count ~ ' rows): it changed after it was checked. Its transaction was rolled back' ~ unchanged_clause,
          {'partition': partition_value, 'expected': expected, 'actual': read, done_as: done}) %}
    {% endif %}
  {% endif %}
  {% if keys_outside is not none %}
    {% set twice = dbt_backfill._keys_also_outside(rows.relation, target_relation, scope, keys_outside) %}
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
  {% do dbt_backfill.replace_partition(target_relation, rows.relation, predicate, target_columns,
      {'column': scope.partition_column.name, 'value': partition_value}) %}
  {% if rows.copied %}
    {% do dbt_backfill._forget_columns(rows.relation) %}
    {% do dbt_backfill._execute('drop table ' ~ rows.relation, fetch=false) %}
  {% endif %}
  {% set after = dbt_backfill._fingerprint_in_scope(target_relation, scope, partition_value, true) %}
  {% if not dbt_backfill._same_fingerprint(after, expected) %}
    {% set undone = dbt_backfill.undo_replacement(target_relation, undo_from, scope, partition_value, target_columns) %}
    {% do dbt_backfill._refuse(reason,
        'partition ' ~ partition_value ~ ' would not equal ' ~ expected_as ~ ' (sha256 ' ~ expected.sha256[:12] ~ '… expected, '
        ~ after.sha256[:12] ~ '… now): ' ~ undone ~ unchanged_clause,
        {'partition': partition_value, 'expected': expected, 'actual': after, done_as: done}) %}
  {% endif %}
  {% set writers = dbt_backfill._hidden_writers(target_relation) %}
  {% if writers %}
    {% set undone = dbt_backfill.undo_replacement(target_relation, undo_from, scope, partition_value, target_columns) %}
    {% do dbt_backfill._refuse('target_has_triggers',
        dbt_backfill._relation_name(target_relation) ~ ' has ' ~ writers | join(', ') ~ ', which run when its rows are '
        ~ 'written and may write outside partition ' ~ partition_value ~ ': a backfill writes the approved partitions and '
        ~ 'nothing else. ' ~ undone[:1] | upper ~ undone[1:] ~ unchanged_clause ~ ' Disable or drop them for the backfill.',
        {'partition': partition_value, 'writers': writers, done_as: done}) %}
  {% endif %}
  {{ return(after) }}
{% endmacro %}

{#
  The rows a replacement inserts: {relation, copied}. PostgreSQL and DuckDB: the source must be a base table (not a
  view, whose answer can depend on who asks and when), and its rows of the partition are copied, inside the
  caller's transaction, into a table created and dropped in that transaction — invisible to every other session,
  so what is fingerprinted is exactly what is inserted. Spark has no transaction to hide a copy in: the source
  itself, which its overwrite reads through the partition predicate.
#}
{% macro _rows_to_write(source_relation, partition_predicate, column_names, source_as, partition_value) %}
  {{ return(adapter.dispatch('_rows_to_write', 'dbt_backfill')(source_relation, partition_predicate, column_names,
                                                              source_as, partition_value)) }}
{% endmacro %}

{% macro default___rows_to_write(source_relation, partition_predicate, column_names, source_as, partition_value) %}
  {% set found = dbt_backfill._execute('select table_type from information_schema.tables where table_schema = '
      ~ dbt_backfill._sql_literal(source_relation.schema) ~ ' and table_name = ' ~ dbt_backfill._sql_literal(source_relation.identifier)
      ~ ((' and table_catalog = ' ~ dbt_backfill._sql_literal(source_relation.database)) if source_relation.database else '')).rows %}
  {% if found | length != 1 or found[0][0] != 'BASE TABLE' %}
    {% do dbt_backfill._refuse(source_as ~ '_not_a_table',
        'the ' ~ source_as ~ ' of partition ' ~ partition_value ~ ', ' ~ dbt_backfill._relation_name(source_relation) ~ ', is '
        ~ (('a ' ~ found[0][0] | lower) if found else 'gone') ~ ', not the table the plan built: someone replaced it. '
        ~ 'Nothing of this partition was written; plan again.', {'partition': partition_value, 'relation': dbt_backfill._relation_ref(source_relation)}) %}
  {% endif %}
  {% set copy = api.Relation.create(database=source_relation.database, schema=source_relation.schema,
                                    identifier=source_relation.identifier ~ '_w', type='table') %}
  {% set columns = [] %}
  {% for name in column_names %}{% do columns.append(adapter.quote(name)) %}{% endfor %}
  {% do dbt_backfill._forget_columns(copy) %}
  {% do dbt_backfill._execute('drop table if exists ' ~ copy, fetch=false) %}
  {% do dbt_backfill._execute('create table ' ~ copy ~ ' as select ' ~ columns | join(', ') ~ ' from ' ~ source_relation
                              ~ ' where ' ~ partition_predicate, fetch=false) %}
  {{ return({'relation': copy, 'copied': true}) }}
{% endmacro %}

{% macro spark___rows_to_write(source_relation, partition_predicate, column_names, source_as, partition_value) %}
  {{ return({'relation': source_relation, 'copied': false}) }}
{% endmacro %}

{# What runs when the target's rows are written besides the statement itself: PostgreSQL's user triggers and
   rules, as "trigger x" / "rule y". Read inside the writing transaction after the insert: its row lock on the
   table blocks CREATE TRIGGER until it commits, so none can appear unseen. DuckDB and Spark have neither. #}
{% macro _hidden_writers(target_relation) %}
  {{ return(adapter.dispatch('_hidden_writers', 'dbt_backfill')(target_relation)) }}
{% endmacro %}

{% macro default___hidden_writers(target_relation) %}
  {{ return([]) }}
{% endmacro %}

{% macro postgres___hidden_writers(target_relation) %}
  {% set table = "(select c.oid from pg_catalog.pg_class c join pg_catalog.pg_namespace n on n.oid = c.relnamespace where n.nspname = "
      ~ dbt_backfill._sql_literal(target_relation.schema) ~ " and c.relname = " ~ dbt_backfill._sql_literal(target_relation.identifier) ~ ")" %}
  {% set rows = dbt_backfill._execute("select 'trigger ' || tgname from pg_catalog.pg_trigger where not tgisinternal and tgrelid = "
      ~ table ~ " union all select 'rule ' || rulename from pg_catalog.pg_rewrite where ev_class = " ~ table
      ~ " and rulename <> '_RETURN' order by 1").rows %}
  {% set writers = [] %}
  {% for row in rows %}{% do writers.append(row[0]) %}{% endfor %}
  {{ return(writers) }}
{% endmacro %}
