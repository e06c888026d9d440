{#
  The mirror of the collisions: a key a named partition loses may have moved to a partition that is not named
  (keys_moved_out, the model's SQL run in the session as `dbt run` has it, only when a named partition loses keys).
  Where the key holds the partition column, a moved row has another key and cannot be told from a deleted one (the
  review says so). Returns {moved_out, key_holds_partition}; each partition's `stage_relation`, kept for this
  check, is dropped from `planned` here.
#}
{% macro _keys_lost(target_relation, model_sql, planned, scope, partitions) %}
  {% set key_holds_partition = (scope.partition_column.name | lower) in (scope.key_columns | map(attribute='name') | map('lower') | list) %}
  {% set losing = [] %}
  {% for p in planned if p.changes.removed > 0 %}{% do losing.append({'value': p.value, 'relation': p.stage_relation}) %}{% endfor %}
  {% set moved_out = [] %}
  {% if losing and not key_holds_partition %}
    {% do dbt_backfill._step('looking for the rows partition(s) ' ~ losing | map(attribute='value') | join(', ') ~ ' lose',
        'looking where a full build places the keys partition(s) ' ~ losing | map(attribute='value') | join(', ')
        ~ ' lose failed (see the error below). No packet was written '
        ~ 'and the target is unchanged.') %}
    {% do dbt_backfill._unpin_session() %}
    {% set moved_out = dbt_backfill.keys_moved_out(target_relation, model_sql, losing, scope, partitions) %}
    {% do dbt_backfill._commit() %}
    {% do dbt_backfill.pin_session() %}
  {% endif %}
  {% for partition in planned %}{% do partition.pop('stage_relation') %}{% endfor %}
  {{ return({'moved_out': moved_out, 'key_holds_partition': key_holds_partition}) }}
{% endmacro %}
