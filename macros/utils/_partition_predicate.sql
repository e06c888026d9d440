{# "<partition column> = cast('<value>' as <the column's own type>)": the value is typed by the database,
   so a malformed value fails the cast instead of comparing as text, and equality on the column's own type
   cannot reach a neighbouring partition. #}
{% macro _partition_predicate(partition_column, partition_value) %}
  {{ return(adapter.quote(partition_column.name) ~ ' = cast(' ~ dbt_backfill._sql_literal(partition_value)
            ~ ' as ' ~ partition_column.data_type ~ ')') }}
{% endmacro %}
