{#
  Execute on the operation's connection inside dbt's own transaction bookkeeping: adapter.execute with
  auto_begin=true opens the transaction that the calling operation ends with adapter.commit() (or abandons by
  raising: dbt then closes the connection and the database rolls the transaction back); run_query() passes
  auto_begin=false, which would leave adapter.commit() with nothing to commit. Marks the transaction open
  (_transaction_open), so _commit needs no statement of its own to open one.
  adapter.execute is what dbt's `statement` block runs; called directly, a statement skips the block's rendering
  and its stored result (about 1.3 ms of a plan's or an apply's statements each, ~1,000 of them in an apply of 100
  partitions: DECISIONS row 157). dbt's query comment and its log of the SQL are the connection's, as before.
#}
{% macro _execute(sql, fetch=true) %}
  {% set response, table = adapter.execute(sql, auto_begin=true, fetch=fetch) %}
  {% do dbt_backfill._transaction_open(true) %}
  {% if fetch %}
    {{ return(table) }}
  {% endif %}
{% endmacro %}
