{# The fingerprint of the rows a backup keeps of partition `partition_value`, which rollback and clean compare with
   the partition now: the backup table itself (it holds that partition's rows: PostgreSQL, DuckDB, a Hive backup's
   one partition), or on an Iceberg target the snapshot its tag keeps (the backup table is a marker naming it:
   _iceberg_backup_partition), read by its id and filtered to the partition. A kept snapshot that is gone or moved
   is refused, naming what is wrong: nothing can be compared with it. #}
{% macro _backup_fingerprint(backup_relation, target_relation, scope, partition_value) %}
  {% if dbt_backfill._write_unit(scope, partition_value).format != 'iceberg' %}
    {{ return(dbt_backfill._fingerprint_in_scope(backup_relation, scope)) }}
  {% endif %}
  {% set kept = dbt_backfill._iceberg_backup_snapshot(backup_relation, target_relation) %}
  {% if kept.problem %}
    {% do dbt_backfill._refuse('backup_gone', 'the backup of partition ' ~ partition_value ~ ' cannot be read: ' ~ kept.problem
        ~ '. The target is unchanged.', {'partition': partition_value}) %}
  {% endif %}
  {{ return(dbt_backfill._fingerprint_in_scope(dbt_backfill._iceberg_pinned(target_relation, kept.snapshot_id), scope,
                                               partition_value, true)) }}
{% endmacro %}
