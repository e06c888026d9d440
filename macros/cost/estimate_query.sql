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

{# DuckDB: the top operator's estimated cardinality; DuckDB's plan carries no row width. #}
{% macro duckdb__estimate_query(sql) %}
  {% set plan = fromjson(dbt_backfill._execute('explain (format json) ' ~ sql).rows[0][1]) %}
  {% set cardinality = ((plan[0] if plan else {}).get('extra_info') or {}).get('Estimated Cardinality') %}
  {{ return({'rows': (cardinality | int) if cardinality is not none else none, 'bytes': none}) }}
{% endmacro %}
