{# The session table _compare_with_model built, dropped once the scan has read it. #}
{% macro _drop_model_rows(rows) %}
  {% do dbt_backfill._execute('drop table if exists ' ~ rows, fetch=false) %}
  {% do dbt_backfill._commit() %}
{% endmacro %}
