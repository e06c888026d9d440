{#
  Delta: one partition replaced by ONE commit, `INSERT INTO <target> REPLACE WHERE <partition predicate> SELECT <the
  target's columns> FROM <the checked copy> VERSION AS OF <pinned>`: exactly the rows the caller fingerprinted (the
  copy must still be at that version: nothing else writes it, and a commit to it after the check is refused).
  Readers see the partition before or after the commit, never between (snapshot isolation). Conflicts:
    - a commit after the snapshot our commit read (its readVersion) that touches the partition: Delta's optimistic
      concurrency fails our commit (ConcurrentAppendException, ...): the statement errors, nothing of ours is in
      the table, and the caller's step says so;
    - a commit between the version the check read (`read`: the backup's version) and that readVersion: Delta
      cannot know our check read an older snapshot, so our commit is found in DESCRIBE HISTORY (by the
      userMetadata it carries) and, when such a commit changed the partition (_delta_partition_changed), the
      partition is put back as the version just before our commit held it — what the other writer left — by one
      more commit, and the write refused: the later decision is never overwritten by the older one.
  Records `commit` (our version) for the undo (delta__undo_replacement).
#}
{% macro delta__replace_partition(target_relation, source_relation, partition_predicate, column_names, unit=none) %}
  {% set state = unit.layout.delta[unit.value | string] %}
  {% set now = dbt_backfill._delta_version(source_relation) %}
  {% if now != state.pinned %}
    {% do dbt_backfill._refuse('rows_changed_after_check', dbt_backfill._relation_name(source_relation) ~ ', the rows '
        ~ 'to write to partition ' ~ unit.value ~ ', is at version ' ~ now ~ ', not version ' ~ state.pinned ~ ' that was '
        ~ 'checked: someone wrote it after the check. Nothing of this partition was written; the partitions after it '
        ~ 'are unchanged. Plan again.', {'partition': unit.value, 'checked': state.pinned, 'now': now}) %}
  {% endif %}
  {% set columns = dbt_backfill._delta_select_list(target_relation) %}
  {% do dbt_backfill._fault_point('delta_before_commit') %}
  {% set tag = 'dbt_backfill:' ~ invocation_id ~ ':' ~ modules.datetime.datetime.utcnow().strftime('%Y%m%dT%H%M%S%f') %}
  {% do dbt_backfill._execute('set spark.databricks.delta.commitInfo.userMetadata = ' ~ tag, fetch=false) %}
  {% do dbt_backfill._execute('insert into ' ~ target_relation ~ ' replace where ' ~ partition_predicate ~ ' select '
      ~ columns ~ ' from ' ~ source_relation ~ ' version as of ' ~ state.pinned ~ ' where '
      ~ partition_predicate, fetch=false) %}
  {% do dbt_backfill._execute('reset spark.databricks.delta.commitInfo.userMetadata', fetch=false) %}
  {% set ours = dbt_backfill._delta_history(target_relation) | selectattr('user_metadata', 'equalto', tag) | list %}
  {% if ours | length != 1 %}
    {% do dbt_backfill._fail('the commit that replaced partition ' ~ unit.value ~ ' is not in the history of '
        ~ dbt_backfill._relation_name(target_relation) ~ ' (' ~ ours | length ~ ' commits tagged ' ~ tag ~ '): run '
        ~ '`dbt-backfill verify` to see what the partition holds.') %}
  {% endif %}
  {% set commit = ours[0].version %}
  {% do state.update({'commit': commit}) %}
  {% set read = ours[0].read_version | int %}
  {% if read > state.read and dbt_backfill._delta_partition_changed(target_relation, partition_predicate, state.read, read) %}
    {% do dbt_backfill._execute('insert into ' ~ target_relation ~ ' replace where ' ~ partition_predicate ~ ' select '
        ~ columns ~ ' from ' ~ target_relation ~ ' version as of ' ~ (commit - 1) ~ ' where '
        ~ partition_predicate, fetch=false) %}
    {% do dbt_backfill._refuse('concurrent_write', 'another writer committed to partition ' ~ unit.value ~ ' of '
        ~ dbt_backfill._relation_name(target_relation) ~ ' after the check read version ' ~ state.read ~ ' (Delta '
        ~ 'version ' ~ read ~ ' holds its change): the approved rows, written by commit ' ~ commit ~ ', were taken back '
        ~ 'by a new commit that put the partition back as the other writer left it (version ' ~ (commit - 1) ~ '). '
        ~ 'The partitions after it are unchanged. Find out who writes the table, then plan again.',
        {'partition': unit.value, 'read_version': state.read, 'other_version': read, 'commit': commit}) %}
  {% endif %}
{% endmacro %}
