{#
  Inside the caller's transaction: replace one partition of the target with the rows of `source_relation` (a stage
  for apply, a backup for rollback), fingerprint the partition as it now stands, and refuse — which rolls the
  transaction back, or where there is none restores `undo_from` — unless it equals `expected`. `done` names the partitions committed before this one, so the
  refusal says exactly what state the target is in. Returns the fingerprint after.
#}
{% macro _replace_checked(target_relation, source_relation, scope, partition_value, target_columns, expected, reason,
                          expected_as, done_as, done, undo_from=none) %}
  {% do dbt_backfill.replace_partition(target_relation, source_relation,
      dbt_backfill._partition_predicate(scope.partition_column, partition_value), target_columns,
      {'column': scope.partition_column.name, 'value': partition_value}) %}
  {% set after = dbt_backfill._fingerprint_in_scope(target_relation, scope, partition_value, true) %}
  {% if not dbt_backfill._same_fingerprint(after, expected) %}
    {% set undone = dbt_backfill.undo_replacement(target_relation, undo_from, scope, partition_value, target_columns) %}
    {% do dbt_backfill._refuse(reason,
        'partition ' ~ partition_value ~ ' would not equal ' ~ expected_as ~ ' (sha256 ' ~ expected.sha256[:12] ~ '… expected, '
        ~ after.sha256[:12] ~ '… now): ' ~ undone ~ '. Partitions ' ~ done_as ~ ' before it: '
        ~ (done | join(', ') or 'none') ~ '; this partition and the rest are unchanged.',
        {'partition': partition_value, 'expected': expected, 'actual': after, done_as: done}) %}
  {% endif %}
  {{ return(after) }}
{% endmacro %}
