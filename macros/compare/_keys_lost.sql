{#
  The mirror of the collisions: a key a named partition loses may have moved to a partition that is not named
  (keys_moved_out, the model's SQL run in the session as `dbt run` has it, only when a named partition loses keys).
  Where the key holds the partition column, a moved row has another key and cannot be told from a deleted one (the
  review says so). When either this or keys_in_two_partitions (`collisions`) found something, keys_repeated tells
  a key that repeats across partitions in a full build (one that identifies a row only within a partition) from a
  row that moved. Returns {moved_out, repeated, key_holds_partition}; each partition's `stage_relation`, kept for
  these checks, is dropped from `planned` here.
#}
{% macro _keys_lost(target_relation, model_sql, planned, scope, partitions, collisions=[]) %}
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
  {% set repeated = [] %}
  {% if (collisions or moved_out) and not key_holds_partition %}
    {% do dbt_backfill._step('looking whether the business key repeats across partitions in a full build',
        'looking whether the business key repeats across partitions in a full build failed (see the error below). '
        ~ 'No packet was written and the target is unchanged.') %}
    {% do dbt_backfill._unpin_session() %}
    {% set stages = [] %}
    {% for p in planned %}{% do stages.append({'value': p.value, 'relation': p.stage_relation}) %}{% endfor %}
    {% set repeated = dbt_backfill.keys_repeated(model_sql, stages, scope) %}
    {% do dbt_backfill._commit() %}
    {% do dbt_backfill.pin_session() %}
  {% endif %}
  {% for partition in planned %}{% do partition.pop('stage_relation') %}{% endfor %}
  {{ return({'moved_out': moved_out, 'repeated': repeated, 'key_holds_partition': key_holds_partition}) }}
{% endmacro %}
