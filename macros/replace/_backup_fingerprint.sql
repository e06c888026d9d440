{# The fingerprint of the rows a backup keeps of partition `partition_value`, which rollback and clean compare with
   the partition now: the backup table itself (it holds that partition's rows: PostgreSQL, DuckDB, a Hive backup's
   one partition), or on an Iceberg target the snapshot its tag keeps (the backup table is a marker naming it:
   iceberg__backup_partition), read by its id and filtered to the partition. A kept snapshot that is gone or moved
   is refused, naming what is wrong: nothing can be compared with it. #}
{% macro _backup_fingerprint(backup_relation, target_relation, scope, partition_value) %}
  {{ return((dbt_backfill._format_leaf('_backup_fingerprint', dbt_backfill._write_unit(scope, partition_value).format) or adapter.dispatch('_backup_fingerprint', 'dbt_backfill'))(
      backup_relation, target_relation, scope, partition_value)) }}
{% endmacro %}

{% macro default___backup_fingerprint(backup_relation, target_relation, scope, partition_value) %}
  {{ return(dbt_backfill._fingerprint_in_scope(backup_relation, scope)) }}
{% endmacro %}
