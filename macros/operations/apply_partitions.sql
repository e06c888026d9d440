{#
  Replace approved partitions, one transaction each, stopping at the first mismatch:
    1. fingerprint every approved stage; each must equal the packet, or nothing at all is touched;
    2. per partition, in one transaction: back up the target's rows of the partition, delete them, insert the stage's rows,
       fingerprint the partition as it now stands, and commit only if it equals the packet. A mismatch raises,
       dbt closes the connection and the database rolls the whole partition back.
  The live job's watermark (meta.backfill.watermark) is read before the first partition: a column watermark must
  not rise inside any partition's transaction (unless the approved packet allows it), and a state table or query
  must read the same after every commit (else a scheduled run is writing concurrently: stop).
  Emits `partition_replaced` after each commit, so a caller killed mid-way still knows what happened, and
  `applied` at the end. The approval is checked by the caller (the CLI) before it calls this.
#}
{% macro apply_partitions(run_id, target, partition_by, business_key, material_columns, partitions, additive=[],
                          watermark=none, allow_watermark_move=false) %}
  {% do dbt_backfill.pin_session() %}
  {% set target_relation = dbt_backfill._target_relation(target) %}
  {% set scope = dbt_backfill._backfill_scope(target_relation, partition_by, business_key, additive, material_columns) %}
  {% set target_columns = dbt_backfill._column_names(target_relation) %}
  {% set replaced = [] %}
  {# Every approved stage is checked before the first partition is touched: a stage altered after approval
     stops the run with the whole target unchanged. #}
  {% set stages = [] %}
  {% for partition in partitions %}
    {% set stage_relation = adapter.get_relation(database=partition.stage.get('database'), schema=partition.stage.schema,
                                                 identifier=partition.stage.identifier) %}
    {% if stage_relation is none %}
      {% do dbt_backfill._refuse('stage_missing',
          'the approved stage of partition ' ~ partition.value ~ ' (' ~ partition.stage.schema ~ '.' ~ partition.stage.identifier
          ~ ') no longer exists. Plan again. The target is unchanged.', {'partition': partition.value}) %}
    {% endif %}
    {% set stage_now = dbt_backfill._fingerprint_in_scope(stage_relation, scope) %}
    {% if not dbt_backfill._same_fingerprint(stage_now, partition.fingerprint) %}
      {% do dbt_backfill._refuse('stage_changed',
          'the stage of partition ' ~ partition.value ~ ' changed after approval (sha256 ' ~ partition.fingerprint.sha256[:12]
          ~ '… approved, ' ~ stage_now.sha256[:12] ~ '… now). Plan and approve again. The target is unchanged.',
          {'partition': partition.value, 'expected': partition.fingerprint, 'actual': stage_now}) %}
    {% endif %}
    {% do stages.append(stage_relation) %}
  {% endfor %}
  {% set watermark_before = dbt_backfill.watermark_state(watermark, target_relation) if watermark else none %}
  {% do dbt_backfill._commit() %}

  {% for partition in partitions %}
    {% set stage_relation = stages[loop.index0] %}
    {% do dbt_backfill._step('replacing partition ' ~ partition.value,
        'the database rejected the replacement of partition ' ~ partition.value ~ ' (see its error below): that '
        ~ 'partition\'s transaction was rolled back. Partitions replaced before it: ' ~ (replaced | join(', ') or 'none')
        ~ '; this partition and the rest are unchanged.') %}
    {% set backup_relation = dbt_backfill._relation(partition.backup) %}
    {% set predicate = dbt_backfill._partition_predicate(scope.partition_column, partition.value) %}
    {% do dbt_backfill.begin_transaction() %}
    {% do dbt_backfill.backup_partition(target_relation, backup_relation, predicate) %}
    {% do dbt_backfill.replace_partition(target_relation, stage_relation, predicate, target_columns) %}
    {% set after = dbt_backfill._fingerprint_in_scope(target_relation, scope, partition.value, true) %}
    {% if not dbt_backfill._same_fingerprint(after, partition.fingerprint) %}
      {% do dbt_backfill._refuse('target_mismatch',
          'partition ' ~ partition.value ~ ' would not equal the approved fingerprint after replacement (sha256 '
          ~ partition.fingerprint.sha256[:12] ~ '… approved, ' ~ after.sha256[:12] ~ '… built): its transaction was rolled back. '
          ~ 'Partitions replaced before it: ' ~ (replaced | join(', ') or 'none') ~ '; this partition and the rest are unchanged.',
          {'partition': partition.value, 'expected': partition.fingerprint, 'actual': after, 'replaced': replaced}) %}
    {% endif %}
    {% if watermark_before and not (watermark_before.kind == 'column' and allow_watermark_move) %}
      {% set watermark_now = dbt_backfill.watermark_state(watermark, target_relation) %}
      {% if dbt_backfill._watermark_moved(target_relation, watermark_before, watermark_now) %}
        {% do dbt_backfill._refuse('watermark_moved',
            'replacing partition ' ~ partition.value ~ ' would ' ~ ('raise' if watermark_before.kind == 'column' else 'change')
            ~ ' the live job\'s watermark (' ~ dbt_backfill._describe_watermark(watermark_before) ~ ': ' ~ watermark_before.value
            ~ ' -> ' ~ watermark_now.value ~ '): its transaction was rolled back. Partitions replaced before it: '
            ~ (replaced | join(', ') or 'none') ~ '; this partition and the rest are unchanged.',
            {'partition': partition.value, 'before': watermark_before, 'after': watermark_now, 'replaced': replaced}) %}
      {% endif %}
    {% endif %}
    {% do dbt_backfill._commit() %}
    {% do replaced.append(partition.value) %}
    {% if watermark_before and watermark_before.kind != 'column' %}
      {% set watermark_now = dbt_backfill.watermark_state(watermark, target_relation) %}
      {% if watermark_now.value != watermark_before.value %}
        {% do dbt_backfill._refuse('watermark_moved_concurrently',
            'the live job\'s watermark (' ~ dbt_backfill._describe_watermark(watermark_before) ~ ') changed after partition '
            ~ partition.value ~ ' was committed: a scheduled run is writing concurrently. Partitions replaced: '
            ~ replaced | join(', ') ~ '; the rest are unchanged. Check the target with `dbt-backfill verify` before going on.',
            {'before': watermark_before, 'after': watermark_now, 'replaced': replaced}) %}
      {% endif %}
    {% endif %}
    {% do dbt_backfill._emit_result('partition_replaced', {
        'value': partition.value, 'fingerprint': after, 'backup': dbt_backfill._relation_ref(backup_relation)}) %}
  {% endfor %}
  {% do dbt_backfill._emit_result('applied', {'run_id': run_id, 'replaced': replaced}) %}
{% endmacro %}
