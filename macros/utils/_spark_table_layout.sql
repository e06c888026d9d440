{#
  Spark storage (the utils/_spark_* helpers): where a table's partitions live, and the catalog operations that move
  and delete them. A backfill on Spark writes each approved partition to a directory of its own under the target's
  location (`_backfill/<relation>`: Spark's file listing skips names that start with `_`), then points the target's
  partition at it with one metastore change; the old directory is the backup (see replace_partition and
  docs/adapters.md).
#}

{# {partition_columns (lower case, in order), location, type ('MANAGED' | 'EXTERNAL' | 'VIEW' | ...), provider
   ('parquet', 'hive', ...)} from one DESCRIBE TABLE EXTENDED. #}
{% macro _spark_table_layout(relation) %}
  {% set rows = dbt_backfill._execute('describe table extended ' ~ relation).rows %}
  {% set layout = {'partition_columns': [], 'location': none, 'type': none, 'provider': none} %}
  {% set section = {'name': none} %}
  {% for row in rows %}
    {% set name = (row[0] or '') | trim %}
    {% if name.startswith('# ') and name != '# col_name' %}
      {% do section.update({'name': name}) %}
    {% elif section.name == '# Partition Information' and name and name != '# col_name' %}
      {% do layout.partition_columns.append(name | lower) %}
    {% elif section.name == '# Detailed Table Information' and name in ('Location', 'Type', 'Provider') %}
      {% do layout.update({name | lower: (row[1] or '') | trim}) %}
    {% endif %}
  {% endfor %}
  {{ return(layout) }}
{% endmacro %}
