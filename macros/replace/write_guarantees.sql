{#
  What one partition's replacement guarantees on this engine, as phrases the review and the written plan quote,
  so neither promises a transaction the engine does not have:
    unit            how one partition is written ("in one transaction" | "by one INSERT OVERWRITE statement")
    write_semantics the Scope section's sentence
    on_mismatch     what happens when the partition read back does not equal the approval
    watermark       when apply re-reads the live job's watermark
    backup          when the backup is taken
    audit           when the audit row is written
    failed_write    what a write the engine rejects leaves behind (quoted by the refusal)
  `table_format`: the target's format where the engine has several (Spark: parquet/hive, delta, iceberg; the plan's
  `table_format`, the write session's layout.provider).
#}
{% macro write_guarantees(table_format=none) %}
  {{ return((dbt_backfill._format_leaf('write_guarantees', table_format) or adapter.dispatch('write_guarantees', 'dbt_backfill'))(table_format)) }}
{% endmacro %}

{% macro default__write_guarantees(table_format=none) %}
  {{ exceptions.raise_compiler_error("dbt_backfill.write_guarantees is not implemented for " ~ adapter.type()) }}
{% endmacro %}

{% macro postgres__write_guarantees(table_format=none) %}
  {{ return(dbt_backfill._transactional_guarantees()) }}
{% endmacro %}

{% macro duckdb__write_guarantees(table_format=none) %}
  {{ return(dbt_backfill._transactional_guarantees()) }}
{% endmacro %}

{% macro _transactional_guarantees() %}
  {{ return({
      'unit': 'in one transaction',
      'write_semantics': 'overwrite by partition — back up the partition, delete it, insert the approved build, check its fingerprint, commit; one transaction per partition',
      'on_mismatch': 'its transaction rolls back',
      'watermark': 'inside every partition\'s transaction',
      'backup': 'taken inside the partition\'s transaction before its rows are deleted',
      'audit': 'written inside the partition\'s transaction',
      'failed_write': 'that partition\'s transaction was rolled back, so it is unchanged'}) }}
{% endmacro %}

{# Spark has no multi-statement transaction: each statement commits alone. Each partition is written to a directory of
   its own first, checked there, and then swapped in with one catalog operation (replace_partition), which readers
   see whole or not at all; what a rollback would undo elsewhere is a swap back to the old directory. #}
{% macro spark__write_guarantees(table_format=none) %}
  {{ return({
      'unit': 'by one partition-location swap',
      'write_semantics': 'swap by partition — write the approved build to a new directory under the table\'s location, check its fingerprint there, then point the partition at it with one ALTER TABLE ... PARTITION ... SET LOCATION (one metastore operation: a reader lists the old directory or the new one, never neither) and check the partition as the table now reads it; a mismatch points it back at the old directory, which is kept untouched as the backup. Spark has no multi-statement transaction: between the swap and the check readers see the new rows',
      'on_mismatch': 'the partition is pointed back at its old directory (its backup), as Spark has no transaction to roll back',
      'watermark': 'right after every partition\'s swap',
      'backup': 'the old directory itself, named by a backup table made before the swap (no copy); a later static INSERT OVERWRITE of the partition by another job deletes that directory, and a rollback then refuses',
      'audit': 'written after each partition\'s swap and check, as its own statement',
      'failed_write': 'a failed write of the new directory leaves the partition as it was (the table still reads its old directory); a failed swap leaves it on the old directory or the new one, whole, and `dbt-backfill verify` shows which'}) }}
{% endmacro %}
