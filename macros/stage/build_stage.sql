{#
  Build one partition's stage: exactly the rows a full, non-incremental build of the model holds for that
  partition. `model_sql` is the model's own SQL compiled with --full-refresh (its is_incremental() branch
  dropped out); the partition filter is applied to the model's output, never pushed into its logic by hand,
  so a trip whose newest version moved to another day is filtered exactly as a full build would place it.
  One transaction per stage, committed here; on DuckDB the caller commits (_build_stages, once after each build's
  stages).
#}
{% macro build_stage(stage_relation, model_sql, partition_predicate) %}
  {{ return(adapter.dispatch('build_stage', 'dbt_backfill')(stage_relation, model_sql, partition_predicate)) }}
{% endmacro %}

{% macro default__build_stage(stage_relation, model_sql, partition_predicate) %}
  {{ exceptions.raise_compiler_error("dbt_backfill.build_stage is not implemented for " ~ adapter.type()) }}
{% endmacro %}

{# PostgreSQL: DDL is transactional, so drop + create table as is one transaction. The stage is analyzed in it:
   every check that joins it then plans from its real size and keys, not from a fresh table's guesses (a sample of
   30,000 rows, ~0.1 s on a 1M-row stage: docs/DECISIONS.md). #}
{% macro postgres__build_stage(stage_relation, model_sql, partition_predicate) %}
  {% do dbt_backfill.begin_transaction() %}
  {% do dbt_backfill._create_table_as(stage_relation, dbt_backfill._partition_rows_of(model_sql, partition_predicate)) %}
  {% do dbt_backfill._execute('analyze ' ~ stage_relation, fetch=false) %}
  {% do dbt_backfill._commit() %}
{% endmacro %}

{# DuckDB: one statement, CREATE OR REPLACE TABLE ... AS (_create_table_as), in the transaction dbt opens with it,
   which the caller commits: a plan's builds a share one, and its builds b another (the file is the process's alone
   while dbt holds it, so no one else could see a stage before it is committed anyway), a BEGIN and a COMMIT a build
   fewer (issue 57). A failed or killed build rolls back the builds of its kind before it. #}
{% macro duckdb__build_stage(stage_relation, model_sql, partition_predicate) %}
  {% do dbt_backfill._create_table_as(stage_relation, dbt_backfill._partition_rows_of(model_sql, partition_predicate)) %}
{% endmacro %}

{# Spark: DDL is not transactional; a stage is private to its run, so a failed build leaves at most a stage that
   the next build of the same run drops, and the target is never touched. Parquet, like the tables dbt-spark makes. #}
{% macro spark__build_stage(stage_relation, model_sql, partition_predicate) %}
  {% do dbt_backfill._spark_table_as(stage_relation, dbt_backfill._partition_rows_of(model_sql, partition_predicate)) %}
{% endmacro %}
