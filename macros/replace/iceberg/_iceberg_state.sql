{# What one partition's write-audit-publish carries from step to step within the invocation (the generic steps pass
   relations, not Iceberg's snapshot ids): by partition value, the snapshot the backup tagged ({before}); by the
   pinned relation of a written branch, {branch, base, written}. Kept in dbt's `graph` under the invocation's id, as
   _relation_columns keeps columns. #}
{% macro _iceberg_state() %}
  {{ return(graph.setdefault('dbt_backfill_iceberg', {}).setdefault(invocation_id, {})) }}
{% endmacro %}
