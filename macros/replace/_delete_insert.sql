{# Delete a partition's rows and insert the stage's, inside the caller's transaction; columns by name. Both
   statements carry the partition predicate: whatever the stage holds, only this partition is written. #}
{% macro _delete_insert(target_relation, stage_relation, partition_predicate, column_names) %}
  {% set columns = [] %}
  {% for name in column_names %}{% do columns.append(adapter.quote(name)) %}{% endfor %}
  {% do dbt_backfill._execute("delete from " ~ target_relation ~ " where " ~ partition_predicate, fetch=false) %}
  {% do dbt_backfill._fault_point('between_delete_and_insert') %}
  {% do dbt_backfill._execute("insert into " ~ target_relation ~ " (" ~ columns | join(', ') ~ ") select "
                              ~ columns | join(', ') ~ " from " ~ stage_relation ~ " where " ~ partition_predicate, fetch=false) %}
{% endmacro %}
