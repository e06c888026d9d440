{# Commit the operation's transaction. adapter.commit() raises when dbt has no transaction open (e.g. nothing ran
   since the last commit); a no-op statement opens one first, unless this invocation's own statements certainly
   opened it (_transaction_open), so callers need not track that state. Spark has no transactions: its
   adapter.commit() does nothing, and the no-op would be a query to the server. #}
{% macro _commit() %}
  {{ return(adapter.dispatch('_commit', 'dbt_backfill')()) }}
{% endmacro %}

{% macro default___commit() %}
  {% if not dbt_backfill._transaction_open() %}
    {% do dbt_backfill._execute('select 1', fetch=false) %}
  {% endif %}
  {% do adapter.commit() %}
  {% do dbt_backfill._transaction_open(false) %}
{% endmacro %}

{% macro spark___commit() %}
{% endmacro %}
