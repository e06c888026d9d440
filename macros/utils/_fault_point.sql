{#
  A named point where the fault tests (tests/test_resilience.py) stop an operation to kill it, restart the
  database or run the scheduled job beside it. Inert unless DBT_BACKFILL_FAULT_POINT names this point; then it
  logs the point and holds: on PostgreSQL until the test releases the advisory lock it holds
  (pg_advisory_lock(1684167271, 0)), on DuckDB in a long query until the process is killed.
#}
{% macro _fault_point(name) %}
  {% if env_var('DBT_BACKFILL_FAULT_POINT', '') == name %}
    {% do log('dbt_backfill fault point: ' ~ name, info=True) %}
    {% if adapter.type() == 'postgres' %}
      {% do dbt_backfill._execute('select pg_catalog.pg_advisory_lock(1684167271, 0); select pg_catalog.pg_advisory_unlock(1684167271, 0)', fetch=false) %}
    {% else %}
      {% do dbt_backfill._execute('select sum(i) from range(1000000000000) as t(i)', fetch=false) %}
    {% endif %}
  {% endif %}
{% endmacro %}
