{#
  Delta: the backup is the target's version before the write (time travel, no copy of a row). `<backup>` is a
  SHALLOW CLONE of the target at that version v — a table of its own whose log names the target's data files of
  version v, so rollback, status and clean find it by name as on every engine, and VACUUM of the target cannot be
  told apart from a lost backup (the clone's read then fails, and rollback refuses). Its own commits keep only this
  partition (a DELETE of the others, recorded in the clone's log alone), so it holds what the partition held at v,
  as a backup does elsewhere. The clone's CLONE commit records the target and v (`describe history <backup>`),
  and so does its property dbt_backfill.target_version. v is the version this partition's write is checked
  against (delta__replace_partition: no other commit may have changed the partition after it). With unit.before
  and unit.scope (apply: the partition's fingerprint as apply just read it, equal to the plan's target_before), the
  clone's rows must still be those: a commit to the partition between that read and v (the scheduled run) would
  otherwise be kept as the backup and replaced by the apply. Refused here instead, before anything is written, as
  Iceberg's backup does (iceberg__backup_partition).
#}
{% macro delta__backup_partition(target_relation, backup_relation, partition_predicate, unit=none) %}
  {% set version = dbt_backfill._delta_version(target_relation) %}
  {% do dbt_backfill._forget_columns(backup_relation) %}
  {# an earlier attempt's clone goes first: CLONE refuses a destination that holds rows #}
  {% do dbt_backfill._execute('drop table if exists ' ~ backup_relation, fetch=false) %}
  {% do dbt_backfill._execute('create table ' ~ backup_relation ~ ' shallow clone ' ~ target_relation
      ~ ' version as of ' ~ version ~ " tblproperties ('dbt_backfill.target_version' = '" ~ version ~ "')", fetch=false) %}
  {% do dbt_backfill._execute('delete from ' ~ backup_relation ~ ' where not (' ~ partition_predicate ~ ') or '
      ~ adapter.quote(unit.column) ~ ' is null', fetch=false) %}
  {% set changed = dbt_backfill._kept_rows_unlike_read(backup_relation, unit, 'the table is now at version ' ~ version) %}
  {% if changed %}
    {% do dbt_backfill._execute('drop table ' ~ backup_relation, fetch=false) %}
    {% do dbt_backfill._refuse('target_changed', changed, {'partition': unit.value, 'version': version}) %}
  {% endif %}
  {% do unit.layout.setdefault('delta', {}).update({unit.value | string: {'read': version}}) %}
{% endmacro %}
