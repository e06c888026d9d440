{# Delta: undo this partition's commit (a check after it refused) by one more commit that puts the partition back
   as the version just before ours held it — unless a commit after ours changed the partition: then it is left as
   that writer left it (never overwrite a later decision). Returns the clause the refusal quotes. #}
{% macro delta__undo_replacement(target_relation, backup_relation, scope, partition_value, target_columns) %}
  {% set state = scope.layout.delta[partition_value | string] %}
  {% set predicate = dbt_backfill._partition_predicate(scope.partition_column, partition_value) %}
  {% set latest = dbt_backfill._delta_version(target_relation) %}
  {% if dbt_backfill._delta_partition_changed(target_relation, predicate, state.commit, latest) %}
    {{ return('another writer changed the partition after Delta commit ' ~ state.commit ~ ' that wrote it (the table is at '
              ~ 'version ' ~ latest ~ '), so it was left as that writer left it') }}
  {% endif %}
  {% set columns = dbt_backfill._delta_select_list(target_relation) %}
  {% do dbt_backfill._execute('insert into ' ~ target_relation ~ ' replace where ' ~ predicate ~ ' select '
      ~ columns ~ ' from ' ~ target_relation ~ ' version as of ' ~ (state.commit - 1) ~ ' where '
      ~ predicate, fetch=false) %}
  {{ return('Delta commit ' ~ state.commit ~ ' that wrote it was undone by a new commit that put the partition back as '
            ~ 'version ' ~ (state.commit - 1) ~ ' held it') }}
{% endmacro %}
