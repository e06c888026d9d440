{#
  Whether this invocation's own statements (_execute, auto_begin) have opened dbt's transaction since the last
  _commit: the state dbt keeps on its connection, which Jinja cannot read. Kept in `graph` under the invocation's id,
  as _remembered_settings is. `open` sets it (true or false); without it, reads it.
  Only ever a lower bound of dbt's own state in the direction that matters: a statement dbt runs for an adapter method
  (a column listing) may open the transaction without setting it, and then _commit sends its no-op first as before;
  what closes the transaction behind _execute's back (adapter.create_schema commits) sets it false
  (_ensure_schema). So _commit skips its no-op only where a transaction is certainly open: the `select 1` it sent
  before every commit was 15% of a plan's statements on DuckDB (bench P10: 759 of 5,500).
#}
{% macro _transaction_open(open=none) %}
  {% set states = graph.setdefault('dbt_backfill_transaction_open', {}) %}
  {% if open is not none %}
    {% do states.update({invocation_id: open}) %}
  {% endif %}
  {{ return(states.get(invocation_id, false)) }}
{% endmacro %}
