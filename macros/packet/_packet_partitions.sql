{#
  A recorded packet's partitions as the apply, rollback and clean operations take them: each with its relations and
  the fingerprints and commitments it was approved with. The CLI binds the same from its `Packet`
  (`partition_args`). The pure-dbt apply, verify, rollback and clean run on these (tests/test_plan_review.py).
#}
{% macro _packet_partitions(packet) %}
  {% set partitions = [] %}
  {% for p in packet.partitions %}
    {% do partitions.append({'value': p.value, 'stage': p.stage_relation, 'stage_b': p.stage_b_relation,
        'backup': p.backup_relation, 'fingerprint': p.fingerprint, 'commitment': p.commitment,
        'target_before': p.target_before, 'target_before_commitment': p.target_before_commitment}) %}
  {% endfor %}
  {{ return(partitions) }}
{% endmacro %}
