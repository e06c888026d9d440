{# Why an Iceberg table cannot take a backfill partition by partition (none when it can): its partition spec must be
   the partition column alone, by identity. Then one value of the column is one partition of the table, and the
   branch's static INSERT OVERWRITE ... PARTITION (col = value) replaces exactly the rows the predicate names. A
   transform (days(ts), bucket(16, id), truncate(...)) groups many values of a column into one partition, and a
   spec with more fields splits one value into many: either way one backfill partition is not one table partition.
   `layout` is _spark_table_layout's. #}
{% macro iceberg__write_unit_problem(target_relation, partition_column, layout=none) %}
  {% set columns, transforms = layout.partition_columns, layout.get('partition_transforms') or [] %}
  {% if not transforms and columns == [partition_column | lower] %}{{ return(none) }}{% endif %}
  {% set name = dbt_backfill._relation_name(target_relation) %}
  {% if transforms %}
    {% set said = name ~ ' is partitioned by (' ~ transforms | join(', ') ~ ')' %}
    {% set why = ': an Iceberg transform such as days(ts) or bucket(n, col) puts many values of a column in one '
        ~ 'partition (or one value in many, with more fields), so one value of ' ~ partition_column ~ ' is not one partition' %}
  {% else %}
    {% set said = name ~ ((' is partitioned by (' ~ columns | join(', ') ~ '), not by ' ~ partition_column ~ ' alone')
                          if columns else ' is not partitioned') %}
    {% set why = '' %}
  {% endif %}
  {{ return(said ~ why ~ ': on an Iceberg table a backfill writes each partition on a branch by a static INSERT '
      ~ 'OVERWRITE ... PARTITION (' ~ partition_column ~ ' = ...), so the table must be partitioned by the identity of '
      ~ partition_column ~ ' alone (partition_by in the model config, no transform)') }}
{% endmacro %}
