{# Delta: the table's version now, before any partition of the session is read: a rollback's write counts other
   writers' commits from there (delta___rows_to_write), so none between its read of a partition and its write goes
   unseen. #}
{% macro delta___writer_baseline(target_relation) %}
  {{ return({'delta_version': dbt_backfill._delta_version(target_relation)}) }}
{% endmacro %}
