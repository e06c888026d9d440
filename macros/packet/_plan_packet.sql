{#
  The plan as the packet records it, from what the steps measured: the contract (`contract`: business_key,
  order_by, additive, exclude_columns, stage_schema, code, expires_at, allowances, batch_size), the source as pinned
  (`pin`: reads, after_build, and the windows: windowing, proof, binding) and what the builds gave (`measured`:
  partitions, skipped_in_ranges, key_collisions, keys_moved_out, keys_repeated, key_holds_partition, watermark, cost, gates,
  control); with the source relations apply reads again, the partitions a build empties, the scheduled run's lock,
  the models downstream and the target's write unit. The review and the written plan are added next (_review_plan).
#}
{% macro _plan_packet(run_id, model, node, target_relation, target_columns, scope, sources, contract, pin, measured) %}
  {% set planned = measured.partitions %}
  {% set material = [] %}
  {% for column in scope.material_columns %}{% do material.append(column.name) %}{% endfor %}
  {% set emptied = [] %}
  {% for p in planned if p.fingerprint.row_count == 0 and p.target_before.row_count > 0 %}{% do emptied.append(p.value) %}{% endfor %}
  {% set source_names, pinned = [], [] %}
  {% for source in sources %}
    {% do source_names.append(dbt_backfill._relation_name(dbt_backfill._relation(source))) %}
    {# what apply reads again: the same relations, windowed inputs within the same windows #}
    {% set ref = dbt_backfill._relation_ref(dbt_backfill._relation(source)) %}
    {% if source.get('content') %}{% do ref.update({'content': true}) %}{% endif %}
    {% if source.get('windows') %}
      {% do ref.update({'event_time': source.event_time, 'event_time_type': source.event_time_type, 'windows': source.windows}) %}
    {% endif %}
    {% do pinned.append(ref) %}
  {% endfor %}
  {# how the engine stores the target (Spark: its format and partitioning), read once for the write unit and the format #}
  {% set layout = dbt_backfill._target_layout(target_relation) %}
  {{ return({
      'run_id': run_id,
      'model': model,
      'target': dbt_backfill._relation_ref(target_relation),
      'target_name': dbt_backfill._relation_name(target_relation),
      'adapter': adapter.type(),
      'package_version': dbt_backfill._version(),
      'partition_by': scope.partition_column.name,
      'partition_type': scope.partition_column.data_type,
      'business_key': contract.business_key,
      'order_by': contract.order_by,
      'additive': contract.additive,
      'exclude_columns': contract.exclude_columns,
      'material_columns': material,
      'target_columns': target_columns,
      'stage_schema': contract.stage_schema,
      'audit_relation': dbt_backfill._relation_name(dbt_backfill._audit_relation(target_relation)),
      'code': contract.code,
      'sources': source_names,
      'source': {'relations': source_names, 'reads': pin.reads, 'after_build': pin.after_build,
                 'pinned': pinned, 'windows': dbt_backfill._windows_recorded(pin.windowing, pin.proof, pin.binding)},
      'expires_at': contract.expires_at,
      'partitions': planned,
      'skipped_in_ranges': measured.skipped_in_ranges,
      'key_collisions': measured.key_collisions,
      'keys_moved_out': measured.keys_moved_out,
      'keys_repeated': measured.get('keys_repeated') or [],
      'key_holds_partition': measured.key_holds_partition,
      'watermark': measured.watermark,
      'emptied': emptied,
      'allowances': contract.allowances,
      'cost': measured.cost,
      'gates': measured.gates,
      'control': measured.control,
      'lock': dbt_backfill.scheduled_run_exclusion(node, layout),
      'downstream': dbt_backfill._downstream_models(node, scope.partition_column.name,
          dbt_backfill._type_family(scope.partition_column.data_type)) if node else [],
      'batch_size': contract.batch_size | int,
      'write_unit_problem': dbt_backfill.write_unit_problem(target_relation, scope.partition_column.name, layout or none),
      'table_format': (layout.get('provider') or '') | lower or none,
      'backup_expiry': dbt_backfill._backup_expiry(target_relation, layout, contract.expires_at),
  }) }}
{% endmacro %}
