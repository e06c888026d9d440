{# Delta: a partition is written by REPLACE WHERE <partition predicate>, which any Delta table accepts; the table must
   still be partitioned by the partition column alone, because the rest of the write is per partition: the backup
   clone keeps one partition by a metadata-only DELETE, another writer's change is found by comparing the
   partition's data files between versions (_delta_partition_changed), and Delta's own conflict check isolates
   writers by the partitions they touch (on an unpartitioned table every concurrent write to any day conflicts). #}
{% macro delta__write_unit_problem(target_relation, partition_column, layout=none) %}
  {% set partition_columns = layout.partition_columns %}
  {% if partition_columns == [partition_column | lower] %}{{ return(none) }}{% endif %}
  {{ return(dbt_backfill._relation_name(target_relation) ~ ' is a delta table '
      ~ (('partitioned by (' ~ partition_columns | join(', ') ~ '), not by ' ~ partition_column ~ ' alone')
         if partition_columns else 'that is not partitioned')
      ~ ': a backfill replaces one Delta partition per commit, backs it up and checks other writers\' commits '
      ~ 'partition by partition, so the table must be partitioned by the partition column alone (partition_by in '
      ~ 'the model config)') }}
{% endmacro %}
