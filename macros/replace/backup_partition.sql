{#
  Keep the target partition's current rows in a backup relation, inside the caller's open transaction
  (the one that then replaces the partition), so the backup and the replacement commit or vanish together.
#}
{% macro backup_partition(target_relation, backup_relation, partition_predicate) %}
  {{ return(adapter.dispatch('backup_partition', 'dbt_backfill')(target_relation, backup_relation, partition_predicate)) }}
{% endmacro %}

{% macro default__backup_partition(target_relation, backup_relation, partition_predicate) %}
  {{ exceptions.raise_compiler_error("dbt_backfill.backup_partition is not implemented for " ~ adapter.type()) }}
{% endmacro %}

{% macro postgres__backup_partition(target_relation, backup_relation, partition_predicate) %}
  {% set partition_rows %}select * from {{ target_relation }} where {{ partition_predicate }}{% endset %}
  {% do dbt_backfill._execute("drop table if exists " ~ backup_relation, fetch=false) %}
  {% do dbt_backfill._execute(get_create_table_as_sql(False, backup_relation, partition_rows), fetch=false) %}
{% endmacro %}
