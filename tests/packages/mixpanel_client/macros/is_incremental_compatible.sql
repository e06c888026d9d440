{# mixpanel v0.16.1 lists bigquery, snowflake, postgres, redshift and databricks; DuckDB handles its delete+insert too #}
{% macro duckdb__is_incremental_compatible() %}
    {{ return(True) }}
{% endmacro %}
