{# Undo a publish a check after it refused (the partition read back unlike the approval, or the live job's
   watermark moved): main already holds it, so the partition is restored from the snapshot its backup keeps by the
   same write-audit-publish — a branch at main's snapshot now, the kept rows written there, main fast-forwarded —
   and the sentence the refusal quotes says so. Unless another writer changed the partition after our publish
   (main moved on, and the partition's files differ from the snapshot we published): then it is left as that writer
   left it, as on Delta — an undo must not overwrite a later decision. A commit after this read makes the undo's own
   publish refuse (main no longer where its branch was made). #}
{% macro iceberg__undo_replacement(target_relation, backup_relation, scope, partition_value, target_columns) %}
  {% if backup_relation is none %}
    {{ return('this step keeps no backup: the partition holds what was just published') }}
  {% endif %}
  {% set unit = dbt_backfill._write_unit(scope, partition_value) %}
  {% set predicate = dbt_backfill._partition_predicate(scope.partition_column, partition_value) %}
  {% set published = (dbt_backfill._iceberg_state().get(unit.value | string) or {}).get('published') %}
  {% set main_now = dbt_backfill._iceberg_refs(target_relation).main.snapshot_id | int %}
  {% if published is not none and dbt_backfill._iceberg_partition_changed(target_relation, predicate, published, main_now) %}
    {{ return('another writer changed the partition after snapshot ' ~ published ~ ' published it (main is at snapshot '
              ~ main_now ~ '), so it was left as that writer left it') }}
  {% endif %}
  {% set rows = dbt_backfill.iceberg___rows_to_write(backup_relation, predicate, target_columns, target_relation, unit,
      'backup') %}
  {% do dbt_backfill.iceberg__replace_partition(target_relation, rows.relation, predicate, target_columns, unit) %}
  {{ return('main had been fast-forwarded to it, so the partition was restored from the snapshot its backup '
      ~ dbt_backfill._relation_name(backup_relation) ~ ' keeps, by a second branch fast-forwarded onto main') }}
{% endmacro %}
