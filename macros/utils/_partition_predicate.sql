{# "<partition column> = cast('<value>' as <the column's own type>)": the value is typed by the database,
   so a malformed value fails the cast instead of comparing as text, and equality on the column's own type
   cannot reach a neighbouring partition. #}
{% macro _partition_predicate(partition_column, partition_value) %}
  {{ return(adapter.dispatch('_partition_predicate', 'dbt_backfill')(partition_column, partition_value)) }}
{% endmacro %}

{% macro default___partition_predicate(partition_column, partition_value) %}
  {{ return(adapter.quote(partition_column.name) ~ ' = cast(' ~ dbt_backfill._sql_literal(partition_value)
            ~ ' as ' ~ partition_column.data_type ~ ')') }}
{% endmacro %}

{# PostgreSQL: the operator is pg_catalog's by name. An exact `=(varchar, varchar)` in any schema would otherwise be a
   better match than the built-in text equality, wherever the schema stands on the path, and decide which rows a
   DELETE removes (CVE-2018-1058); the pinned path keeps such a schema off it, and this keeps the statement's meaning
   from depending on the path at all. #}
{% macro postgres___partition_predicate(partition_column, partition_value) %}
  {{ return(adapter.quote(partition_column.name) ~ ' OPERATOR(pg_catalog.=) cast(' ~ dbt_backfill._sql_literal(partition_value)
            ~ ' as ' ~ partition_column.data_type ~ ')') }}
{% endmacro %}
