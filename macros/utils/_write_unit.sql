{# The partition being written, as the engine's write and undo leaves take it: {column, value, root, format} (root:
   Spark's target location; format: its provider, parquet/hive, delta or iceberg; both from the write session's
   layout, none elsewhere; layout: the session's own, where a format's leaves keep what one step of a partition's
   write hands the next, as Delta's versions). #}
{% macro _write_unit(scope, partition_value) %}
  {{ return({'column': scope.partition_column.name, 'value': partition_value,
             'root': (scope.get('layout') or {}).get('location'),
             'format': ((scope.get('layout') or {}).get('provider') or '') | lower or none,
             'layout': scope.get('layout') or {}}) }}
{% endmacro %}
