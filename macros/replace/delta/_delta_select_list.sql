{# A Delta table's columns in its own order, quoted, as an INSERT ... REPLACE WHERE ... SELECT lists them: that
   statement matches columns by position, and the names the write is handed are in the package's order, not the
   table's. #}
{% macro _delta_select_list(relation) %}
  {% set columns = [] %}
  {% for name in dbt_backfill._execute('select * from ' ~ relation ~ ' limit 0').column_names %}
    {% do columns.append(adapter.quote(name)) %}
  {% endfor %}
  {{ return(columns | join(', ')) }}
{% endmacro %}
