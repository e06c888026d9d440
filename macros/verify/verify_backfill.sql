{#
  The pure-dbt verify: the target's partitions of the packet plan_backfill recorded for `run_id` still equal
  their approved fingerprints (refused with the mismatches otherwise). Records `verified` in the audit trail.

  dbt run-operation dbt_backfill.verify_backfill --args '{run_id: ...}'
#}
{% macro verify_backfill(run_id) %}
  {% if not execute %}{{ return('') }}{% endif %}
  {% set packet = dbt_backfill._recorded_packet(run_id).packet %}
  {% set read = dbt_backfill.fingerprint_partitions(packet.target_relation, packet.partition_by, packet.business_key, packet.material_columns,
      packet.partitions | map(attribute='value') | list, packet.additive, packet.partitions | map(attribute='fingerprint') | list,
      packet.run_id, packet.model, true) %}
  {# a mismatch was refused above, with the partitions named: here every partition equals its approval #}
  {% do log('Verified run ' ~ run_id ~ ': all ' ~ packet.partitions | length ~ ' partition(s) of ' ~ read.relation
      ~ ' equal their approval.', info=true) %}
{% endmacro %}
