{# How the engine stores the target, as the writes of each partition need it: {} where a write is bounded by its
   predicate (PostgreSQL, DuckDB); Spark: {partition_columns, location, type}. #}
{% macro _target_layout(target_relation, writing=false) %}
  {{ return(adapter.dispatch('_target_layout', 'dbt_backfill')(target_relation, writing)) }}
{% endmacro %}

{% macro default___target_layout(target_relation, writing=false) %}
  {{ return({}) }}
{% endmacro %}

{# `writing` (a write session, _write_session): on Delta, also the table's version now, before any partition of the
   session is read: a rollback's write counts other writers' commits from there (delta___rows_to_write), so none
   between its read of a partition and its write goes unseen. A plan or a clean reads no version. #}
{% macro spark___target_layout(target_relation, writing=false) %}
  {% set layout = dbt_backfill._spark_table_layout(target_relation) %}
  {% if writing and (layout.provider or '') | lower == 'delta' %}
    {% do layout.update({'delta_version': dbt_backfill._delta_version(target_relation)}) %}
  {% endif %}
  {{ return(layout) }}
{% endmacro %}
