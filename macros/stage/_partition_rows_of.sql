{# The model's rows for one partition: the filter applied to the model's output. #}
{% macro _partition_rows_of(model_sql, partition_predicate) %}
  {% set rows %}
    select * from (
      {{ dbt_backfill._strip_statement_end(model_sql) }}
    ) as dbt_backfill_model_rows
    where {{ partition_predicate }}
  {% endset %}
  {{ return(rows) }}
{% endmacro %}
