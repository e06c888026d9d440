{#
  A named point where the fault tests (tests/test_resilience.py) stop an operation to kill it, restart the
  database or run the scheduled job beside it. Inert unless DBT_BACKFILL_FAULT_POINT names this point; then it
  logs the point and holds: on PostgreSQL until the test releases the advisory lock it holds
  (pg_advisory_lock(1684167271, 0)), on DuckDB in a long query until the process is killed, on Spark in a loop
  of dbt's own (a query would go on holding the shared Spark server's cores after the client is killed) — or, with
  DBT_BACKFILL_FAULT_RELEASE naming a table, until that table appears in Spark's `default` database (a test that
  lets the operation go on after it committed beside it: tests/test_iceberg.py), asking the catalog each turn.
#}
{% macro _fault_point(name) %}
  {% if env_var('DBT_BACKFILL_FAULT_POINT', '') == name %}
    {% do log('dbt_backfill fault point: ' ~ name, info=True) %}
    {% if adapter.type() == 'postgres' %}
      {% do dbt_backfill._execute('select pg_catalog.pg_advisory_lock(1684167271, 0); select pg_catalog.pg_advisory_unlock(1684167271, 0)', fetch=false) %}
    {% elif adapter.type() == 'spark' and env_var('DBT_BACKFILL_FAULT_RELEASE', '') %}
      {% set held = {'on': true} %}
      {% for i in range(100000) if held.on %}
        {% if dbt_backfill._execute('show tables in default like '
              ~ dbt_backfill._sql_literal(env_var('DBT_BACKFILL_FAULT_RELEASE'))).rows %}{% do held.update({'on': false}) %}{% endif %}
      {% endfor %}
      {% do log('dbt_backfill fault point released: ' ~ name, info=True) %}
    {% elif adapter.type() == 'spark' %}
      {% for i in range(100000) %}{% for j in range(100000) %}{% endfor %}{% endfor %}
    {% else %}
      {% do dbt_backfill._execute('select sum(i) from range(1000000000000) as t(i)', fetch=false) %}
    {% endif %}
  {% endif %}
{% endmacro %}
