{#
  Why this engine cannot replace partitions of `partition_column` in `target_relation` one at a time, as a sentence
  the plan's review quotes as a BLOCK and apply quotes as its refusal; none when it can. Read once per plan and
  once per apply (_write_session, which hands over the `layout` it read: _target_layout), never per partition.
  PostgreSQL and DuckDB bound each write by the partition predicate: any table will do.
#}
{% macro write_unit_problem(target_relation, partition_column, layout=none) %}
  {{ return((dbt_backfill._format_leaf('write_unit_problem', (layout or {}).get('provider')) or adapter.dispatch('write_unit_problem', 'dbt_backfill'))(target_relation, partition_column, layout)) }}
{% endmacro %}

{% macro default__write_unit_problem(target_relation, partition_column, layout=none) %}
  {{ return(none) }}
{% endmacro %}

{# Delta and Iceberg: their own checks (delta__write_unit_problem, iceberg__write_unit_problem). A Hive table: Spark swaps a partition's directory in the catalog, so it must be partitioned by the partition column alone
   (by another column, or by it and more, one partition of the backfill is not one partition of the table). #}
{% macro spark__write_unit_problem(target_relation, partition_column, layout=none) %}
  {% set layout = layout or dbt_backfill._spark_table_layout(target_relation) %}
  {% set partition_columns = layout.partition_columns %}
  {% if partition_columns == [partition_column | lower] %}{{ return(none) }}{% endif %}
  {{ return(dbt_backfill._relation_name(target_relation)
      ~ ((' is partitioned by (' ~ partition_columns | join(', ') ~ '), not by ' ~ partition_column ~ ' alone')
         if partition_columns else ' is not partitioned')
      ~ ': on Spark a backfill replaces a partition by pointing the table\'s partition at a directory written '
      ~ 'beforehand, so the table must be partitioned by the partition column alone (partition_by in the model config)') }}
{% endmacro %}
