{# The partitions a read names (`--partitions`, or the operation's `partitions` arg: a list, one value, or a
   comma-separated string), by plan's rules and in its words: each item as _partition_items reads it (YAML's
   rewrites, a mapping, an empty or invisible value refused), ranges expanded (_expanded_partitions), each named
   once (_refuse_repeated_partitions); none when none are named. `partition_by` and `relation`: the partition column
   and the target, whose column type is read only for a value YAML did not read as text. #}
{% macro _named_partition_values(partitions, partition_by, relation) %}
  {% if partitions is none %}{{ return(none) }}{% endif %}
  {% set values = dbt_backfill._expanded_partitions(dbt_backfill._partition_items(partitions, partition_by, relation)) %}
  {% do dbt_backfill._refuse_repeated_partitions(values) %}
  {{ return(values) }}
{% endmacro %}
