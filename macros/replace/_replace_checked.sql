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
  {% set checked = dbt_backfill._commitment_and_keys_outside(rows.relation, target_relation, scope, partition_value,
                                                            expected.row_count, commitment is not none, keys_outside) %}
  {% set committed = checked.commitment %}
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
    {% set twice = checked.twice %}
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
