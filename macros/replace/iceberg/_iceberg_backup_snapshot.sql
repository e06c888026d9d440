{# The snapshot an Iceberg backup keeps (see iceberg__backup_partition): {snapshot_id, problem}. The marker table
   names the tag and the snapshot; the tag must still exist on the target and point at that snapshot (a tag
   removed, or moved by someone, no longer keeps it from expiry, or keeps another one): else `problem` says what is
   wrong and snapshot_id is none. #}
{% macro _iceberg_backup_snapshot(backup_relation, target_relation) %}
  {% set rows = dbt_backfill._execute('select tag, snapshot_id from ' ~ backup_relation).rows %}
  {% if rows | length != 1 %}
    {{ return({'snapshot_id': none, 'problem': 'its marker ' ~ dbt_backfill._relation_name(backup_relation) ~ ' holds '
        ~ rows | length ~ ' rows, not the one naming the snapshot'}) }}
  {% endif %}
  {% set tag, kept = rows[0][0], rows[0][1] | int %}
  {% set ref = dbt_backfill._iceberg_refs(target_relation).get(tag) %}
  {% if ref is none or ref.type != 'TAG' %}
    {{ return({'snapshot_id': none, 'problem': 'the tag ' ~ tag ~ ' that kept snapshot ' ~ kept ~ ' from expiry is gone from '
        ~ dbt_backfill._relation_name(target_relation)}) }}
  {% endif %}
  {% if (ref.snapshot_id | int) != kept %}
    {{ return({'snapshot_id': none, 'problem': 'the tag ' ~ tag ~ ' points at snapshot ' ~ ref.snapshot_id ~ ', not at snapshot '
        ~ kept ~ ' its marker records: it was moved'}) }}
  {% endif %}
  {{ return({'snapshot_id': kept, 'problem': none}) }}
{% endmacro %}
