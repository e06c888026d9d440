{#
  Write-audit-publish, the write: one partition's rows written on a branch of the run, one commit on the branch,
  main untouched. The branch (`<source>_w`, the name a Hive write gives its written copy) is made at the snapshot
  the backup tagged (apply: iceberg__backup_partition), or at main's snapshot now (rollback, undo); one left by an
  earlier attempt is dropped first. The rows: the stage's (apply) or, for a backup, the target's own rows at the
  snapshot the backup keeps (_iceberg_backup_snapshot), by one static INSERT OVERWRITE ... PARTITION (col = value)
  on the branch, the partition column out (the static spec gives its value). Returns the branch's new snapshot,
  pinned by id (_iceberg_pinned), as {relation, copied, keep}: the caller fingerprints that and commits to it — the
  audit reads the rows as the table will read them once main is fast-forwarded to that very snapshot
  (iceberg__replace_partition, which finds {branch, base, written} in _iceberg_state).
#}
{% macro iceberg___rows_to_write(source_relation, partition_predicate, column_names, target_relation, unit, source_as) %}
  {% set state = dbt_backfill._iceberg_state() %}
  {% set rows_from = source_relation %}
  {% if source_as == 'backup' %}
    {% set kept = dbt_backfill._iceberg_backup_snapshot(source_relation, target_relation) %}
    {% if kept.problem %}
      {% do dbt_backfill._refuse('backup_gone', 'partition ' ~ unit.value ~ ' cannot be restored from its backup: '
          ~ kept.problem ~ '. Nothing of this partition was written; it holds what it held.', {'partition': unit.value}) %}
    {% endif %}
    {% set rows_from = dbt_backfill._iceberg_pinned(target_relation, kept.snapshot_id) %}
  {% endif %}
  {% set refs = dbt_backfill._iceberg_refs(target_relation) %}
  {% set base = (state.get(unit.value | string) or {}).get('before') if source_as == 'stage' else none %}
  {% set base = (base or refs.main.snapshot_id) | int %}
  {% set branch = source_relation.identifier ~ '_w' %}
  {% if branch in refs %}
    {% do dbt_backfill._execute('alter table ' ~ target_relation ~ ' drop branch `' ~ branch ~ '`', fetch=false) %}
  {% endif %}
  {% do dbt_backfill._execute('alter table ' ~ target_relation ~ ' create branch `' ~ branch ~ '` as of version ' ~ base, fetch=false) %}
  {% set data_columns = [] %}
  {% for name in column_names if name | lower != unit.column | lower %}{% do data_columns.append(adapter.quote(name)) %}{% endfor %}
  {% do dbt_backfill._execute('insert overwrite ' ~ target_relation ~ '.`branch_' ~ branch ~ '` '
      ~ dbt_backfill._spark_partition_spec(unit) ~ ' (' ~ data_columns | join(', ') ~ ') select ' ~ data_columns | join(', ')
      ~ ' from ' ~ rows_from ~ ' where ' ~ partition_predicate, fetch=false) %}
  {% set written = dbt_backfill._iceberg_refs(target_relation)[branch].snapshot_id | int %}
  {% set pinned = dbt_backfill._iceberg_pinned(target_relation, written, partition_predicate) %}
  {% do state.update({dbt_backfill._relation_name(pinned): {'branch': branch, 'base': base, 'written': written}}) %}
  {{ return({'relation': pinned, 'copied': true, 'keep': true}) }}
{% endmacro %}
