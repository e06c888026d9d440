{#
  Iceberg's backup of one partition: no copy. The snapshot main is at now (S, whose rows of the partition are the
  rows before) is kept by a tag named for the backup relation, so snapshot expiry (expire_snapshots,
  history.expire.max-snapshot-age-ms) cannot remove it while the tag lives, and the backup relation itself is a
  one-row marker table in the stage schema naming the table, the tag and S: it exists exactly when the backup
  does, as rollback and clean expect of a backup, and what it names is read back and checked against the tag
  (_iceberg_backup_snapshot). With unit.before and unit.scope (apply: the partition's fingerprint as apply read it, equal to
  the plan's target_before), S's partition must still be those rows: a commit to main between that read and the tag
  (the scheduled run) is refused here, before anything is written. S is the base of the branch the partition is
  then written on (iceberg___rows_to_write) and main must still be at S when it is published (iceberg__replace_partition).
#}
{% macro iceberg__backup_partition(target_relation, backup_relation, partition_predicate, unit=none) %}
  {% set main = dbt_backfill._iceberg_refs(target_relation).get('main') %}
  {% if main is none %}
    {% do dbt_backfill._fail(dbt_backfill._relation_name(target_relation) ~ ' has no snapshot on main yet: there is no '
        ~ 'partition to back up. The target is unchanged.') %}
  {% endif %}
  {% set before = main.snapshot_id | int %}
  {% set changed = dbt_backfill._kept_rows_unlike_read(dbt_backfill._iceberg_pinned(target_relation, before), unit,
                                                       'main is now at snapshot ' ~ before) %}
  {% if changed %}
    {% do dbt_backfill._refuse('target_changed', changed, {'partition': unit.value, 'snapshot': before}) %}
  {% endif %}
  {% do dbt_backfill._execute('alter table ' ~ target_relation ~ ' create or replace tag `' ~ backup_relation.identifier
      ~ '` as of version ' ~ before, fetch=false) %}
  {# an Iceberg table, made or replaced by one CREATE OR REPLACE: a managed table of Spark's own (parquet) leaves its
     directory behind when dropped in Iceberg's session catalog, and a new one of that name may not take it #}
  {% do dbt_backfill._forget_columns(backup_relation) %}
  {% do dbt_backfill._execute('create or replace table ' ~ backup_relation ~ ' using iceberg as select '
      ~ dbt_backfill._sql_literal(dbt_backfill._relation_name(target_relation)) ~ ' as target, '
      ~ dbt_backfill._sql_literal(backup_relation.identifier) ~ ' as tag, cast(' ~ before ~ ' as bigint) as snapshot_id, '
      ~ dbt_backfill._sql_literal(unit.value | string) ~ ' as partition_value', fetch=false) %}
  {% do dbt_backfill._iceberg_state().update({unit.value | string: {'before': before}}) %}
{% endmacro %}
