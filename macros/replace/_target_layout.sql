{# How the engine stores the target, as the writes of each partition need it: {} where a write is bounded by its
   predicate (PostgreSQL, DuckDB); Spark: {partition_columns, location, type}. #}
{% macro _target_layout(target_relation, writing=false) %}
  {{ return(adapter.dispatch('_target_layout', 'dbt_backfill')(target_relation, writing)) }}
{% endmacro %}

{% macro default___target_layout(target_relation, writing=false) %}
  {{ return({}) }}
{% endmacro %}

{# `writing` (a write session, _write_session): also what the table's format reads before any partition of the
   session is read (_writer_baseline: Delta's version). A plan or a clean reads none. #}
{% macro spark___target_layout(target_relation, writing=false) %}
  {% set layout = dbt_backfill._spark_table_layout(target_relation) %}
  {% if writing %}
    {% do layout.update((dbt_backfill._format_leaf('_writer_baseline', layout.provider)
                         or adapter.dispatch('_writer_baseline', 'dbt_backfill'))(target_relation)) %}
  {% endif %}
  {{ return(layout) }}
{% endmacro %}
