{#
  Spark storage (the utils/_spark_* helpers): where a table's partitions live, and the catalog operations that move
  and delete them. A backfill on Spark writes each approved partition to a directory of its own under the target's
  location (`_backfill/<relation>`: Spark's file listing skips names that start with `_`), then points the target's
  partition at it with one metastore change; the old directory is the backup (see replace_partition and
  docs/adapters.md).
#}

{# {partition_columns (lower case, in order), partition_transforms, location, type ('MANAGED' | 'EXTERNAL' | 'VIEW' |
   ...), provider ('parquet', 'hive', 'iceberg', ...)} from one DESCRIBE TABLE EXTENDED. An Iceberg table partitioned
   by its columns alone (identity) lists them under `# Partition Information` as a Hive table does; one with a
   transform lists every field under `# Partitioning` instead (`Part 0` | `days(ts)`): partition_transforms. #}
{% macro _spark_table_layout(relation) %}
  {% set rows = dbt_backfill._execute('describe table extended ' ~ relation).rows %}
  {% set layout = {'partition_columns': [], 'partition_transforms': [], 'location': none, 'type': none, 'provider': none} %}
  {% set section = {'name': none} %}
  {% for row in rows %}
    {% set name = (row[0] or '') | trim %}
    {% if name.startswith('# ') and name != '# col_name' %}
      {% do section.update({'name': name}) %}
    {% elif section.name == '# Partition Information' and name and name != '# col_name' %}
      {% do layout.partition_columns.append(name | lower) %}
    {% elif section.name == '# Partitioning' and name.startswith('Part ') %}
      {% do layout.partition_transforms.append((row[1] or '') | trim) %}
    {% elif section.name == '# Detailed Table Information' and name in ('Location', 'Type', 'Provider') %}
      {% do layout.update({name | lower: (row[1] or '') | trim}) %}
    {% endif %}
  {% endfor %}
  {{ return(layout) }}
{% endmacro %}
