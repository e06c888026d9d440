{#
  The database's own estimate of what a query returns, from its planner (EXPLAIN, nothing is run):
  {rows, bytes}; bytes is none where the engine gives no row width.
#}
{% macro estimate_query(sql) %}
  {{ return(adapter.dispatch('estimate_query', 'dbt_backfill')(sql)) }}
{% endmacro %}

{% macro default__estimate_query(sql) %}
  {{ exceptions.raise_compiler_error("dbt_backfill.estimate_query is not implemented for " ~ adapter.type()) }}
{% endmacro %}

{# PostgreSQL: the top plan node's line carries the planner's rows and average row width in bytes. #}
{% macro postgres__estimate_query(sql) %}
  {% set plan = dbt_backfill._execute('explain ' ~ sql) %}
  {% set found = modules.re.search('rows=([0-9]+) width=([0-9]+)', plan.rows[0][0]) %}
  {% if not found %}{{ return({'rows': none, 'bytes': none}) }}{% endif %}
  {{ return({'rows': found.group(1) | int, 'bytes': (found.group(1) | int) * (found.group(2) | int)}) }}
{% endmacro %}

{# DuckDB: the estimated cardinality of the top operator that carries one (an EMPTY_RESULT is proven empty);
   DuckDB's plan carries no row width. #}
{% macro duckdb__estimate_query(sql) %}
  {% set plan = fromjson(dbt_backfill._execute('explain (format json) ' ~ sql).rows[0][1]) %}
  {% set nodes = plan[:1] %}
  {% for _ in range(50) if nodes %}
    {% set node = nodes.pop(0) %}
    {% if node.name == 'EMPTY_RESULT' %}{{ return({'rows': 0, 'bytes': none}) }}{% endif %}
    {% set cardinality = (node.get('extra_info') or {}).get('Estimated Cardinality') %}
    {% if cardinality is not none %}{{ return({'rows': cardinality | int, 'bytes': none}) }}{% endif %}
    {% do nodes.extend((node.get('children') or [])[:1]) %}
  {% endfor %}
  {{ return({'rows': none, 'bytes': none}) }}
{% endmacro %}

{# Spark: EXPLAIN COST prints the optimized plan's statistics; its top line carries sizeInBytes and, when the
   tables were analysed, rowCount. #}
{% macro spark__estimate_query(sql) %}
  {% set plan = dbt_backfill._execute('explain cost ' ~ sql).rows[0][0] | string %}
  {% set size = modules.re.search('sizeInBytes=([0-9.]+) ?([KMGTPE]?i?B)', plan) %}
  {% set rows = modules.re.search('rowCount=([0-9.E+]+)', plan) %}
  {% set units = {'B': 1, 'KiB': 1024, 'MiB': 1024 ** 2, 'GiB': 1024 ** 3, 'TiB': 1024 ** 4, 'PiB': 1024 ** 5, 'EiB': 1024 ** 6} %}
  {{ return({'rows': (rows.group(1) | float | int) if rows else none,
             'bytes': ((size.group(1) | float) * units.get(size.group(2), 1)) | int if size else none}) }}
{% endmacro %}
