{# What one partition's replacement guarantees on an Iceberg table (write_guarantees' phrases): write-audit-publish.
   Each partition is its own commit on main; Spark has no multi-statement transaction, so the checks after the
   publish can only undo it by a second publish. #}
{% macro iceberg__write_guarantees(table_format=none) %}
  {{ return({
      'unit': 'by one fast-forward of main to an audited branch snapshot',
      'write_semantics': 'write-audit-publish by partition — tag the snapshot main is at (the backup), make a branch of the run there, write the approved build on it by one static INSERT OVERWRITE ... PARTITION (one commit on the branch, main untouched), read the branch\'s new snapshot by its id and check its fingerprint and commitment against the approval, then fast-forward main to exactly that snapshot (system.fast_forward) only if main is still at the snapshot the branch was made at, and check the partition as the table now reads it. A reader sees main before or after the fast-forward, never neither. Spark has no multi-statement transaction: between the publish and the check readers see the new rows',
      'on_mismatch': 'the partition is restored from the tagged snapshot before by a second branch fast-forwarded onto main, as Spark has no transaction to roll back',
      'watermark': 'right after every partition\'s publish',
      'backup': 'the snapshot main was at before the publish, kept by a tag named for the backup (no copy; the backup table is a one-row marker naming the tag and the snapshot): Iceberg\'s snapshot expiry (expire_snapshots, history.expire.max-snapshot-age-ms, 5 days unless the table sets it) never removes a tagged snapshot, so the rollback window is not bounded by it; clean drops the tag with the backup',
      'audit': 'written after each partition\'s publish and check, as its own statement',
      'failed_write': 'a failed write on the branch leaves main as it was; a publish Iceberg refuses (main moved after the audit: "Cannot fast-forward: main is not an ancestor") leaves main as the other writer left it, and this partition unpublished'}) }}
{% endmacro %}
