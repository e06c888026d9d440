{# Delta: one commit per partition (INSERT ... REPLACE WHERE from the checked copy's pinned version); readers see a
   snapshot, the old partition or the new one; a concurrent writer to the partition is detected (Delta's optimistic
   concurrency after our commit's read snapshot, DESCRIBE HISTORY between the check and it: delta__replace_partition). #}
{% macro delta__write_guarantees(table_format=none) %}
  {{ return({
      'unit': 'by one Delta commit',
      'write_semantics': 'replace by partition — copy the approved build\'s partition into a Delta table of its own, check its fingerprint and commitment at one version of it, then write exactly that version with one INSERT INTO ... REPLACE WHERE <partition> commit (readers see the snapshot before it or after it, never neither), check in the table\'s history that no other commit changed the partition after the version the check read, and check the partition as committed; Delta has no multi-statement transaction: between the commit and the check readers see the new rows',
      'on_mismatch': 'a new commit puts the partition back as the version before ours held it (Delta time travel), unless another writer changed it since',
      'watermark': 'right after every partition\'s commit',
      'backup': 'the table\'s version before the commit, kept by name as a shallow clone (no row copied) whose CLONE commit records that version; a VACUUM of the table past delta.deletedFileRetentionDuration can delete its files, and a rollback then refuses',
      'audit': 'written after each partition\'s commit and check, as its own statement',
      'failed_write': 'a commit Delta rejects (a conflicting writer: ConcurrentAppendException and the like) writes nothing, so the partition is as it was; `dbt-backfill verify` shows it'}) }}
{% endmacro %}
