{# A value that changes on every read: the unsafe source of the seed scenario. #}
{% macro volatile_timestamp() %}
  {{ return(adapter.dispatch('volatile_timestamp')()) }}
{% endmacro %}

{% macro default__volatile_timestamp() %}clock_timestamp(){% endmacro %}

{# DuckDB has no clock_timestamp(); now() is the transaction's start, which differs between two reads. #}
{% macro duckdb__volatile_timestamp() %}now(){% endmacro %}

{# Spark: current_timestamp() is fixed within one query and differs between two. #}
{% macro spark__volatile_timestamp() %}current_timestamp(){% endmacro %}
