{#
  Open a real transaction on the server for what follows, up to the next _commit(). Do not rely on dbt's
  bookkeeping alone: dbt-postgres commits by sending COMMIT as SQL, which psycopg2 does not see; psycopg2 then
  believes a transaction is still open, sends no BEGIN before the next statement, and every later statement
  commits on its own (an insert after adapter.commit() survived handle.rollback() on this machine). An explicit
  BEGIN makes a partition's backup + delete + insert one transaction again, and the rollback on a refusal real.
  On a fresh connection psycopg2 has already sent its own BEGIN; the server then warns and carries on.
#}
{% macro begin_transaction() %}
  {{ return(adapter.dispatch('begin_transaction', 'dbt_backfill')()) }}
{% endmacro %}

{% macro default__begin_transaction() %}
  {{ exceptions.raise_compiler_error("dbt_backfill.begin_transaction is not implemented for " ~ adapter.type()) }}
{% endmacro %}

{% macro postgres__begin_transaction() %}
  {% do dbt_backfill._execute('begin', fetch=false) %}
{% endmacro %}

{# DuckDB: dbt-duckdb sends a real BEGIN when dbt opens a transaction (and COMMIT/ROLLBACK to match), and a
   second BEGIN would be an error. dbt opens it with the next statement (_execute runs with auto_begin), so nothing is
   sent here: what follows is one transaction from its first statement, whose snapshot every later read shares (a
   DuckDB transaction reads one snapshot). What runs before that statement is this macro's caller's, not the
   transaction's. A `select 1` sent here to open it early was one statement a partition of apply and rollback (bench
   P10, issue 57). #}
{% macro duckdb__begin_transaction() %}
{% endmacro %}

{# Spark: no multi-statement transactions; each statement commits alone (a partition's swap is one catalog
   operation). What a transaction would roll back elsewhere, apply undoes by swapping back to the old directory. #}
{% macro spark__begin_transaction() %}
{% endmacro %}
