{#
  Build one partition's stage: exactly the rows a full, non-incremental build of the model holds for that
  partition. `model_sql` is the model's own SQL compiled with --full-refresh (its is_incremental() branch
  dropped out); the partition filter is applied to the model's output, never pushed into its logic by hand,
  so a trip whose newest version moved to another day is filtered exactly as a full build would place it.
  One transaction per stage, committed here.
#}
{% macro build_stage(stage_relation, model_sql, partition_predicate) %}
  {{ return(adapter.dispatch('build_stage', 'dbt_backfill')(stage_relation, model_sql, partition_predicate)) }}
{% endmacro %}

{% macro default__build_stage(stage_relation, model_sql, partition_predicate) %}
  {{ exceptions.raise_compiler_error("dbt_backfill.build_stage is not implemented for " ~ adapter.type()) }}
{% endmacro %}

{# PostgreSQL: drop + create table as, in one transaction (DDL is transactional). #}
{% macro postgres__build_stage(stage_relation, model_sql, partition_predicate) %}
  {% set partition_rows %}
    select * from (
      {{ dbt_backfill._strip_statement_end(model_sql) }}
    ) as dbt_backfill_model_rows
    where {{ partition_predicate }}
  {% endset %}
  {% do dbt_backfill.begin_transaction() %}
  {% do dbt_backfill._execute("drop table if exists " ~ stage_relation, fetch=false) %}
  {% do dbt_backfill._execute(get_create_table_as_sql(False, stage_relation, partition_rows), fetch=false) %}
  {% do dbt_backfill._commit() %}
{% endmacro %}
