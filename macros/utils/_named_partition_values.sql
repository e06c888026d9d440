{# The partitions a read names (`--partitions`, or the operation's `partitions` arg): values and inclusive ranges,
   comma-separated or as a list, expanded as plan expands them; none when none are named. YAML reads one date or
   number alone as that value, not a list. #}
{% macro _named_partition_values(partitions) %}
  {% if partitions is none %}{{ return(none) }}{% endif %}
  {% set items = partitions.split(',') if partitions is string
                 else partitions if partitions is iterable and partitions is not mapping else [partitions] %}
  {{ return(dbt_backfill._expanded_partitions(items | map('string') | map('trim') | list)) }}
{% endmacro %}
