{# Every column name of a relation as the relation declares it (a quoted "Amount" keeps its case: it is quoted
   again in every statement), sorted case-insensitively: the material columns are drawn from this. #}
{% macro _column_names(relation) %}
  {% set names = [] %}
  {% for column in dbt_backfill._relation_columns(relation) %}
    {% do names.append(column.name) %}
  {% endfor %}
  {{ return(names | sort(case_sensitive=false)) }}
{% endmacro %}
