{# Spark: drop `relation` if it exists and create it as a parquet table from `sql`. #}
{% macro _spark_table_as(relation, sql) %}
  {% do dbt_backfill._forget_columns(relation) %}
  {% do dbt_backfill._execute("drop table if exists " ~ relation, fetch=false) %}
  {% do dbt_backfill._execute("create table " ~ relation ~ " using parquet as " ~ sql, fetch=false) %}
{% endmacro %}

{# Spark: the table's partition columns, lower case, in order (from DESCRIBE's '# Partition Information'). #}
{% macro _spark_partition_columns(relation) %}
  {% set rows = dbt_backfill._execute('describe table ' ~ relation).rows %}
  {% set found = {'in_section': false} %}
  {% set columns = [] %}
  {% for row in rows %}
    {% set name = (row[0] or '') | trim %}
    {% if name == '# Partition Information' %}
      {% do found.update({'in_section': true}) %}
    {% elif found.in_section and name and not name.startswith('#') %}
      {% do columns.append(name | lower) %}
    {% elif found.in_section and name.startswith('#') and name != '# col_name' %}
      {% do found.update({'in_section': false}) %}
    {% endif %}
  {% endfor %}
  {{ return(columns) }}
{% endmacro %}
