{# The canonical text of a relation's business key (fields joined by '|'), typed by the relation's own columns. #}
{% macro _key_expression(relation, scope) %}
  {% set key_names = [] %}
  {% for column in scope.key_columns %}{% do key_names.append(column.name) %}{% endfor %}
  {% set fields = [] %}
  {% for column in dbt_backfill._columns(relation, key_names, 'business_key') %}
    {% do fields.append(dbt_backfill.canonical_text(column.name, column.data_type)) %}
  {% endfor %}
  {{ return(dbt_backfill._canonical_row(fields)) }}
{% endmacro %}
