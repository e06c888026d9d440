{#
  At apply, inside a partition's transaction: keys of the rows about to be written (`rows_relation`, the copy of the
  stage) that the target now also holds outside every approved partition (`values`), NULL partitions included —
  the plan's check again, on the target as it is when it is written (the live job may have written a key since the
  plan). Returns up to `sample_size` {key, also_in}. Columns compared as they are, so an index on the key serves.
#}
{% macro _keys_also_outside(rows_relation, target_relation, scope, values, keys, sample_size=5) %}
  {% set query = dbt_backfill._keys_also_outside_sql(rows_relation, target_relation, scope, values, keys, sample_size) %}
  {{ return(dbt_backfill._keys_found(dbt_backfill._execute(query).rows, scope.key_columns)) }}
{% endmacro %}
