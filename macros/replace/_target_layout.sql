{# How the engine stores the target, as the writes of each partition need it: {} where a write is bounded by its
   predicate (PostgreSQL, DuckDB); Spark: {partition_columns, location, type}. #}
{% macro _target_layout(target_relation) %}
  {{ return(adapter.dispatch('_target_layout', 'dbt_backfill')(target_relation)) }}
{% endmacro %}

{% macro default___target_layout(target_relation) %}
  {{ return({}) }}
{% endmacro %}

{% macro spark___target_layout(target_relation) %}
  {{ return(dbt_backfill._spark_table_layout(target_relation)) }}
{% endmacro %}
