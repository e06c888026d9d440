{# The type of an instant: PostgreSQL's and DuckDB's timestamptz; Spark's TIMESTAMP is one already. #}
{% macro _instant_type() %}
  {{ return(adapter.dispatch('_instant_type', 'dbt_backfill')()) }}
{% endmacro %}

{% macro default___instant_type() %}
  {{ return('timestamp with time zone') }}
{% endmacro %}

{% macro spark___instant_type() %}
  {{ return('timestamp') }}
{% endmacro %}
