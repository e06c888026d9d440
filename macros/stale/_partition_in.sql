{# The partition column equal to any of `values`, each cast to the column's own type (as _partition_predicate casts
   one value), in one test: what a read of many partitions filters by. #}
{% macro _partition_in(partition_column, values) %}
  {{ return(adapter.dispatch('_partition_in', 'dbt_backfill')(partition_column, values)) }}
{% endmacro %}

{% macro default___partition_in(partition_column, values) %}
  {% if not values %}{{ return('1 = 0') }}{% endif %}
  {% set typed = [] %}
  {% for value in values %}
    {% do typed.append('cast(' ~ dbt_backfill._sql_literal(value) ~ ' as ' ~ partition_column.data_type ~ ')') %}
  {% endfor %}
  {{ return(adapter.quote(partition_column.name) ~ ' in (' ~ typed | join(', ') ~ ')') }}
{% endmacro %}

{# PostgreSQL: pg_catalog's equality by name, as _partition_predicate uses (an `=` in a schema on the path cannot
   decide which rows are read). #}
{% macro postgres___partition_in(partition_column, values) %}
  {% if not values %}{{ return('1 OPERATOR(pg_catalog.=) 0') }}{% endif %}
  {% set literals = [] %}
  {% for value in values %}{% do literals.append(dbt_backfill._sql_literal(value)) %}{% endfor %}
  {{ return(adapter.quote(partition_column.name) ~ ' OPERATOR(pg_catalog.=) ANY (cast(ARRAY[' ~ literals | join(', ')
            ~ '] as ' ~ partition_column.data_type ~ '[]))') }}
{% endmacro %}
