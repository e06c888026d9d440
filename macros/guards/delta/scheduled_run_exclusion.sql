{# Delta: no lock either, but the write detects a conflicting writer: Delta fails our commit when a commit after the
   snapshot it read touched the partition, and a commit between the check and that snapshot that changed it makes
   the write take itself back and refuse (delta__replace_partition). A scheduled run that writes the same partition
   during apply is never silently overwritten, nor overwrites the approved rows unseen (verify and the
   checkpoints read them back). #}
{% macro delta__scheduled_run_exclusion(node, layout={}) %}
  {{ return({'scheduled_run_waits': true, 'how': 'the target is a Delta table: each partition is replaced by one commit that Delta fails when another commit touched the partition after the snapshot it read, and one that finds in the table\'s history another writer\'s change to the partition since the check takes itself back and refuses; a scheduled run writing the same partition is never overwritten unseen (it does not wait: one of the two fails, nothing mixed)'}) }}
{% endmacro %}
