{# Drop `relation` if it exists and create it from `sql`, in one committed transaction (engines whose DDL is
   transactional). #}
{% macro _create_table_in_one_transaction(relation, sql) %}
  {% do dbt_backfill.begin_transaction() %}
  {% do dbt_backfill._create_table_as(relation, sql) %}
  {% do dbt_backfill._commit() %}
{% endmacro %}

{# Drop + create table as, inside the caller's transaction; dbt's own create_table_as renders the engine's DDL. #}
{% macro _create_table_as(relation, sql) %}
  {% do dbt_backfill._forget_columns(relation) %}
  {% do dbt_backfill._execute("drop table if exists " ~ relation, fetch=false) %}
  {% do dbt_backfill._execute(get_create_table_as_sql(False, relation, sql), fetch=false) %}
{% endmacro %}

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
