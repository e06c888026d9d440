{#
  Execute on the operation's connection inside dbt's own transaction bookkeeping. run_query() passes
  auto_begin=false, which leaves adapter.commit() with nothing to commit; statement(auto_begin=true) opens the
  transaction that the calling operation ends with adapter.commit() (or abandons by raising: dbt then closes
  the connection and the database rolls the transaction back). Marks the transaction open (_transaction_open), so
  _commit needs no statement of its own to open one.
#}
{% macro _execute(sql, fetch=true) %}
  {% call statement('dbt_backfill_execute', fetch_result=fetch, auto_begin=true) %}{{ sql }}{% endcall %}
  {% do dbt_backfill._transaction_open(true) %}
  {% if fetch %}
    {{ return(load_result('dbt_backfill_execute').table) }}
  {% endif %}
{% endmacro %}
