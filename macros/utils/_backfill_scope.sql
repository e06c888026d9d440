{#
  Resolve the scope the CLI passes (names) against the target relation (columns and their types):
  partition column, business key, additive and material columns. Raises naming what is missing.
#}
{% macro _backfill_scope(target_relation, partition_by, business_key, additive, material_columns) %}
  {% set partition_column = dbt_backfill._columns(target_relation, [partition_by], 'partition_by')[0] %}
  {# A partition is one value of a column. A timestamp names an instant, not a day, and a day of a timestamptz
     depends on the session's time zone: a predicate on one could reach into a neighbouring day. #}
  {% if dbt_backfill._type_family(partition_column.data_type) not in ('date', 'integer', 'text') %}
    {% do dbt_backfill._fail("partition_by " ~ partition_column.name ~ " is " ~ partition_column.data_type
        ~ ": a partition column must hold whole partition values (a date, an integer or a text). For time, "
        ~ "partition by a date column derived in the model (e.g. trip_date), so a day's boundary belongs to the table, "
        ~ "not to a session's time zone. Nothing was changed.") %}
  {% endif %}
  {% set key_columns = dbt_backfill._columns(target_relation, business_key, 'business_key') %}
  {% set additive_columns = dbt_backfill._columns(target_relation, additive, 'additive') %}
  {% for column in additive_columns %}
    {% if dbt_backfill._type_family(column.data_type) not in ('integer', 'decimal', 'float') %}
      {% do dbt_backfill._fail("additive column " ~ column.name ~ " is " ~ column.data_type
          ~ ", not a number: totals are sums. Nothing was changed.") %}
    {% endif %}
  {% endfor %}
  {% set material = dbt_backfill._columns(target_relation, material_columns, 'material column') %}
  {{ return({
      'partition_column': partition_column,
      'key_columns': key_columns,
      'additive_columns': additive_columns,
      'material_columns': material,
  }) }}
{% endmacro %}
