{# Check 3 on an Iceberg table (scheduled_run_exclusion's answer): no lock either, but none is needed for safety —
   each partition is published by fast-forwarding main from the snapshot its audit read, which Iceberg refuses once
   another commit moved main (iceberg__replace_partition). #}
{% macro iceberg__scheduled_run_exclusion(node, layout={}) %}
  {{ return({'scheduled_run_waits': true, 'how': 'an Iceberg table takes no lock, but each partition is published by fast-forwarding main from the snapshot its audit read, and only while main is still there: a scheduled run that commits between the audit and the publish makes the publish refuse (that partition unpublished, the table as the run left it), and one that commits after it commits on top of the repair, never under it'}) }}
{% endmacro %}
