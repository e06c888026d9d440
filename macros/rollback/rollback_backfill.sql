{#
  The pure-dbt rollback: restore the partitions that apply_backfill replaced for `run_id` from their backups
  (rollback_partitions: one transaction each, committed only when equal to the fingerprint before the apply).

  dbt run-operation dbt_backfill.rollback_backfill --args '{run_id: ...}'
#}
{% macro rollback_backfill(run_id) %}
  {% if not execute %}{{ return('') }}{% endif %}
  {% set recorded = dbt_backfill._recorded_packet(run_id) %}
  {% set packet = recorded.packet %}
  {% set rolled_back = dbt_backfill.rollback_partitions(packet.run_id, packet.model, packet.target_relation, packet.partition_by,
      packet.business_key, packet.material_columns, dbt_backfill._packet_partitions(packet), packet.additive, {'packet_sha256': recorded.sha256}, recorded.sha256,
      dbt_backfill._invoking_user('dbt run-operation'), packet.downstream or []) %}
  {% do log('Rolled back run ' ~ run_id ~ ' on ' ~ dbt_backfill._relation_name(dbt_backfill._target_relation(packet.target_relation)) ~ ': '
      ~ rolled_back.restored | length ~ ' partition(s) restored' ~ (' (' ~ rolled_back.restored | join(', ') ~ ')' if rolled_back.restored else '')
      ~ '.', info=true) %}
  {% if rolled_back.downstream_still_applied.said %}{% do log(rolled_back.downstream_still_applied.said, info=true) %}{% endif %}
{% endmacro %}
