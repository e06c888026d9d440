{# The values of partition column `column` that `relation` has partitions for, as SHOW PARTITIONS names them
   (`column=value`); a value Spark had to escape in the path (`%`) is left out: it cannot be named back exactly. #}
{% macro _spark_partition_values(relation, column) %}
  {% set values = [] %}
  {% for row in dbt_backfill._execute('show partitions ' ~ relation).rows %}
    {% set name, _, value = (row[0] or '').partition('=') %}
    {% if (name | lower) == (column | lower) and '%' not in value and value != '__HIVE_DEFAULT_PARTITION__' %}
      {% do values.append(value) %}
    {% endif %}
  {% endfor %}
  {{ return(values) }}
{% endmacro %}
