{#
  What every operation that writes the target (apply, rollback) does first: pin the session, check the packet
  against the project (_check_packet), take the table's backfill lock (refused when held), resolve the scope against
  the target, and make sure the audit table exists.
  Refuses a target the engine cannot replace partition by partition (write_unit_problem). The scope carries the
  target's `layout` (_target_layout) to every partition's write.
  `publishing`: apply (its plan's record must be attributed: _planned_record). Returns {relation, scope, columns,
  planned, audit_fields}; planned is the plan's record (_check_packet); audit_fields are the columns every audit row of the run carries.
#}
{% macro _write_session(target, model, partition_by, business_key, additive, material_columns, approval, run_id,
                        partitions, packet_sha256=none, publishing=false) %}
  {# pinned first: the packet's checks read the audit table through the session's search_path too #}
  {% do dbt_backfill.pin_session() %}
  {% set planned = dbt_backfill._check_packet(model, target, run_id, partitions, packet_sha256, publishing=publishing) %}
  {% set target_relation = dbt_backfill._target_relation(target) %}
  {% do dbt_backfill.acquire_target_lock(target_relation) %}
  {% set scope = dbt_backfill._backfill_scope(target_relation, partition_by, business_key, additive, material_columns) %}
  {# how the engine stores the target (Spark: its location and partitioning), read once for every partition #}
  {% set layout = dbt_backfill._target_layout(target_relation, writing=true) %}
  {% set problem = dbt_backfill.write_unit_problem(target_relation, scope.partition_column.name, layout) %}
  {% if problem %}
    {% do dbt_backfill._refuse('target_not_partitioned', problem ~ '. The target is unchanged.',
        {'partition_columns': layout.get('partition_columns'), 'partition_by': scope.partition_column.name}) %}
  {% endif %}
  {% do scope.update({'layout': layout}) %}
  {% set session = {
      'relation': target_relation,
      'scope': scope,
      'columns': dbt_backfill._column_names(target_relation),
      'planned': planned,
      'audit_fields': {'model': model, 'packet_sha256': approval.get('packet_sha256'), 'approved_by': approval.get('approved_by')},
  } %}
  {% do dbt_backfill._ensure_audit_table(target_relation) %}
  {{ return(session) }}
{% endmacro %}
