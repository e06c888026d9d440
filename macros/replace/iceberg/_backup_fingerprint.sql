{# Iceberg's backup is a marker naming the snapshot its tag keeps (iceberg__backup_partition): that snapshot is read by
   its id and filtered to the partition. A kept snapshot that is gone or moved is refused, naming what is wrong. #}
{% macro iceberg___backup_fingerprint(backup_relation, target_relation, scope, partition_value) %}
  {% set kept = dbt_backfill._iceberg_backup_snapshot(backup_relation, target_relation) %}
  {% if kept.problem %}
    {% do dbt_backfill._refuse('backup_gone', 'the backup of partition ' ~ partition_value ~ ' cannot be read: ' ~ kept.problem
        ~ '. The target is unchanged.', {'partition': partition_value}) %}
  {% endif %}
  {{ return(dbt_backfill._fingerprint_in_scope(dbt_backfill._iceberg_pinned(target_relation, kept.snapshot_id), scope,
                                               partition_value, true)) }}
{% endmacro %}
