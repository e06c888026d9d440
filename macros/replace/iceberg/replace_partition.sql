{#
  Write-audit-publish, the publish: main fast-forwarded to the audited snapshot of the branch, only if main is still
  at the snapshot the branch was made at (the audit's "before"). Read first (refs, refreshed): main moved — a
  commit by another writer since — is refused here, and main left as that writer left it; the branch moved (someone
  wrote the run's branch) likewise. Then `system.fast_forward(table, 'main', branch)`: Iceberg's
  SnapshotManager reads the table's metadata afresh and moves main only if main's snapshot is an ancestor of the
  branch's ("Cannot fast-forward: main is not an ancestor of ..." otherwise), and a commit that loses the race in
  the catalog is not rebased: BaseTransaction retries a failed commit by re-applying the ref update, whose base is
  the metadata it started from, and that raises at once (PendingUpdateFailedException, no retry). Read after:
  main must be at exactly the audited snapshot (an ancestor-rollback of main in the instant between the two reads
  would otherwise pass). The branch is dropped once published. `written_relation` is what iceberg___rows_to_write
  returned; the partition's spec was checked once per apply (write_unit_problem).
#}
{% macro iceberg__replace_partition(target_relation, written_relation, partition_predicate, column_names, unit=none) %}
  {% set wrote = dbt_backfill._iceberg_state().get(dbt_backfill._relation_name(written_relation)) %}
  {% if wrote is none %}
    {% do dbt_backfill._fail(dbt_backfill._relation_name(written_relation) ~ ' was not written on a branch by this '
        ~ 'invocation: nothing to publish. The target is unchanged.') %}
  {% endif %}
  {% do dbt_backfill._fault_point('iceberg_before_publish') %}
  {% set refs = dbt_backfill._iceberg_refs(target_relation) %}
  {% set main_now = refs.main.snapshot_id | int %}
  {% set branch_now = (refs.get(wrote.branch) or {}).get('snapshot_id') %}
  {% if main_now != wrote.base or (branch_now | int) != wrote.written %}
    {% set moved = ('main moved from snapshot ' ~ wrote.base ~ ' (the one the audit read as before) to ' ~ main_now
        ~ ': another writer committed to the table after the audit') if main_now != wrote.base
        else ('the branch ' ~ wrote.branch ~ ' moved from the audited snapshot ' ~ wrote.written ~ ' to ' ~ branch_now) %}
    {% do dbt_backfill._refuse('target_moved', 'partition ' ~ unit.value ~ ' was not published: ' ~ moved ~ '. Iceberg '
        ~ 'publishes only by fast-forwarding main from the snapshot the audit read, so nothing of this partition was '
        ~ 'published and main is as the other writer left it; partitions published before it in this run stay '
        ~ 'published (the audit trail lists them). Apply again: it reads each partition afresh, and refuses one the other '
        ~ 'writer changed.',
        {'partition': unit.value, 'before': wrote.base, 'main': main_now, 'branch': wrote.branch}) %}
  {% endif %}
  {% do dbt_backfill._execute('call spark_catalog.system.fast_forward(' ~ dbt_backfill._sql_literal(target_relation.schema
      ~ '.' ~ target_relation.identifier) ~ ', \'main\', ' ~ dbt_backfill._sql_literal(wrote.branch) ~ ')', fetch=false) %}
  {% set main_after = dbt_backfill._iceberg_refs(target_relation).main.snapshot_id | int %}
  {% if main_after != wrote.written %}
    {% do dbt_backfill._fail('after the fast-forward of ' ~ dbt_backfill._relation_name(target_relation) ~ '\'s main to '
        ~ 'the audited snapshot ' ~ wrote.written ~ ', main is at snapshot ' ~ main_after ~ ': another writer moved it in '
        ~ 'the same instant. Check the table with `dbt-backfill verify` before going on.') %}
  {% endif %}
  {% do dbt_backfill._execute('alter table ' ~ target_relation ~ ' drop branch if exists `' ~ wrote.branch ~ '`', fetch=false) %}
  {# what an undo compares main with: the snapshot this partition was published at (iceberg__undo_replacement) #}
  {% do dbt_backfill._iceberg_state().setdefault(unit.value | string, {}).update({'published': wrote.written}) %}
{% endmacro %}
