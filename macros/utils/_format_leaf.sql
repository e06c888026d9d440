{#
  A Spark table format's own leaf of `macro_name`: `delta__<macro_name>` (replace/delta/, guards/delta/) or
  `iceberg__<macro_name>` (replace/iceberg/, guards/iceberg/) where `table_format` names that format and it has one;
  else none, and the caller takes the engine's (adapter.dispatch, whose first argument dbt reads as a literal):
    (dbt_backfill._format_leaf('backup_partition', format) or adapter.dispatch('backup_partition', 'dbt_backfill'))(…)
  A table format is chosen once, as an engine is. `table_format`: the provider the target's layout names (parquet,
  hive, delta, iceberg; none off Spark).
#}
{% macro _format_leaf(macro_name, table_format) %}
  {% set format = (table_format or '') | lower %}
  {{ return(dbt_backfill.get(format ~ '__' ~ macro_name)
            if adapter.type() == 'spark' and format in ('delta', 'iceberg') else none) }}
{% endmacro %}
