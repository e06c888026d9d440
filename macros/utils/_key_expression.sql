{# The canonical text of a relation's business key (fields joined by '|'), typed by the relation's own columns. #}
{% macro _key_expression(relation, scope) %}
  {% set key_names = [] %}
  {% for column in scope.key_columns %}{% do key_names.append(column.name) %}{% endfor %}
  {% set fields = [] %}
  {% for column in dbt_backfill._columns(relation, key_names, 'business_key') %}
    {% do fields.append(dbt_backfill.canonical_text(column.name, column.data_type)) %}
  {% endfor %}
  {{ return(fields | join(" || '|' || ")) }}
{% endmacro %}

{# "<partition column> not in (<named values>)": the target's rows outside the backfill. Rows whose partition
   value is NULL belong to no partition and are left out too. #}
{% macro _outside_partitions(scope, values) %}
  {% set literals = [] %}
  {% for value in values %}
    {% do literals.append('cast(' ~ dbt_backfill._sql_literal(value) ~ ' as ' ~ scope.partition_column.data_type ~ ')') %}
  {% endfor %}
  {{ return(adapter.quote(scope.partition_column.name) ~ ' not in (' ~ literals | join(', ') ~ ')') }}
{% endmacro %}
