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
#}
{% macro write_guarantees() %}
  {{ return(adapter.dispatch('write_guarantees', 'dbt_backfill')()) }}
{% endmacro %}

{% macro default__write_guarantees() %}
  {{ exceptions.raise_compiler_error("dbt_backfill.write_guarantees is not implemented for " ~ adapter.type()) }}
{% endmacro %}

{% macro postgres__write_guarantees() %}
  {{ return(dbt_backfill._transactional_guarantees()) }}
{% endmacro %}

{% macro duckdb__write_guarantees() %}
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

{# Spark has no multi-statement transaction: each statement commits alone. A static INSERT OVERWRITE ... PARTITION
   replaces one partition in one statement (on a parquet table it deletes the partition's files, then writes the
   new ones: not atomic for a reader); what a rollback would undo elsewhere is restored from the backup. #}
{% macro spark__write_guarantees() %}
  {{ return({
      'unit': 'by one INSERT OVERWRITE statement',
      'write_semantics': 'static overwrite by partition — back up the partition, overwrite it with the approved build in one INSERT OVERWRITE ... PARTITION statement, check its fingerprint; a mismatch restores the backup. Spark has no multi-statement transaction: between the overwrite and the check readers see the new rows, and on a parquet table Spark deletes the partition\'s files before it writes the new ones, so a reader during the overwrite can find the partition empty',
      'on_mismatch': 'the partition is restored from its backup, as Spark has no transaction to roll back',
      'watermark': 'right after every partition\'s overwrite',
      'backup': 'taken before the partition is overwritten, as its own statement',
      'audit': 'written after each partition\'s overwrite and check, as its own statement',
      'failed_write': 'Spark may have removed the partition\'s old files before the failed write, so it may be empty or partial; its rows from before the apply are in its backup in the stage schema (the packet names it), and `dbt-backfill verify` shows whether it is as planned'}) }}
{% endmacro %}
