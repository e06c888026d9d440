{#
  The transaction of one partition's write on the target (apply's replacement, rollback's restore): begun, and on
  PostgreSQL the table taken in SHARE ROW EXCLUSIVE mode until it commits. Every check that follows reads the
  table as it will be written: a session that does not take the backfill lock (a hand-written statement, another
  tool, a model without the pre-hook) cannot insert, update or delete any row of it meanwhile; its write waits for
  the commit, then lands on the approved rows. With the table's ROW EXCLUSIVE lock alone (what a DELETE takes), a row
  committed into the partition after its backup was deleted with the partition and kept nowhere (an attack on
  2026-12-07), and a key written into another partition after the key check was published twice. Readers are not
  held (a SELECT's ACCESS SHARE lock does not conflict); DDL waits too, so no trigger, rule or constraint can appear
  before the commit (_hidden_writers reads them under this lock). DuckDB: the process holds the database file, no
  other can write it. Spark: no lock a session can hold (docs/adapters.md). One statement on PostgreSQL: the BEGIN and
  the lock together. A session that wrote to the table and has not committed holds the lock back: the partition waits
  for it at most `dbt_backfill_lock_wait_s` seconds (a var, 60 unless set), then stops, nothing of it written,
  instead of waiting for as long as that session stays open (an attack on 2026-12-07: apply waited, silent, on
  another session's open insert). The step says which partition's transaction the database stopped, and
  `unchanged_clause` what was written before it (the CLI names the database's cause: a lock not had in time, a
  deadlock).
#}
{% macro _begin_writing(target_relation, partition_value, unchanged_clause) %}
  {% do dbt_backfill._step('beginning the transaction of partition ' ~ partition_value,
      'the database stopped the transaction of partition ' ~ partition_value ~ ' before its first write (see its error '
      ~ 'below). ' ~ unchanged_clause) %}
  {{ return(adapter.dispatch('_begin_writing', 'dbt_backfill')(target_relation)) }}
{% endmacro %}

{% macro default___begin_writing(target_relation) %}
  {% do dbt_backfill.begin_transaction() %}
{% endmacro %}

{% macro postgres___begin_writing(target_relation) %}
  {% set wait_s = [var('dbt_backfill_lock_wait_s', 60) | int, 1] | max %}
  {% do dbt_backfill._execute("begin; set local lock_timeout = '" ~ wait_s ~ "s'; lock table " ~ target_relation
      ~ " in share row exclusive mode; set local lock_timeout to default", fetch=false) %}
{% endmacro %}
