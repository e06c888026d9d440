{#
  Spark: where a table's partitions live, and the catalog operations that move and delete them. A backfill on Spark
  writes each approved partition to a directory of its own under the target's location (`_backfill/<relation>`:
  Spark's file listing skips names that start with `_`), then points the target's partition at it with one
  metastore change; the old directory is the backup (see replace_partition and docs/adapters.md).
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

{# `PARTITION (col = 'value')` for {column, value}. #}
{% macro _spark_partition_spec(partition) %}
  {{ return('partition (' ~ adapter.quote(partition.column) ~ ' = ' ~ dbt_backfill._sql_literal(partition.value | string) ~ ')') }}
{% endmacro %}

{# The directory partition {column, value} of `relation` reads, as the catalog names it; none when the table has no
   such partition. #}
{% macro _spark_partition_location(relation, partition) %}
  {% set found = dbt_backfill._execute('show partitions ' ~ relation ~ ' ' ~ dbt_backfill._spark_partition_spec(partition)).rows %}
  {% if not found %}{{ return(none) }}{% endif %}
  {% for row in dbt_backfill._execute('describe table extended ' ~ relation ~ ' ' ~ dbt_backfill._spark_partition_spec(partition)).rows %}
    {% if (row[0] or '') | trim == 'Location' %}{{ return((row[1] or '') | trim) }}{% endif %}
  {% endfor %}
  {{ return(none) }}
{% endmacro %}

{# An external table with the columns, partitioning and format of `like`, rooted at `location` (replacing a table
   of that name: external, so dropping it deletes no file). #}
{% macro _spark_external_like(relation, like, location) %}
  {% do dbt_backfill._forget_columns(relation) %}
  {% do dbt_backfill._execute('drop table if exists ' ~ relation, fetch=false) %}
  {% do dbt_backfill._execute('create table ' ~ relation ~ ' like ' ~ like ~ ' location ' ~ dbt_backfill._sql_literal(location), fetch=false) %}
{% endmacro %}

{#
  Delete the directory of partition {column, value} of `relation` (an external table dbt-backfill made: a written
  copy or a backup) when nothing needs it; returns {deleted, kept} (locations, with why kept; with list_only, what
  it would delete, nothing deleted). Deleted only when all of these hold, each read now:
    - it is a directory of this partition that dbt-backfill or the table itself made: its last part is
      `<column>=<value>` for this very value, and it lies in `<table location>/_backfill/` (a written copy's, this
      run's or an earlier run's) or is the partition's default directory `<table location>/<column>=<value>` —
      never anything a changed table property could point elsewhere (another partition's directory, a path
      outside the table);
    - the target's partition of that value does not read it (a swap never moves a directory to another value);
    - no other backup in the stage schema names it for that value (a later run's backup of this partition is this
      run's written directory: its rollback needs it).
  Deleted through the catalog, as Spark offers no file operation in SQL: a throwaway managed table (`<relation>_purge`)
  is given the directory as its partition, and dropping a managed table's partition deletes its directory (Hive
  metastore, HiveMetaStore.drop_partition_common). A query still reading that directory fails; clean runs after
  apply and rollback, never during them.
#}
{% macro _spark_release_directory(relation, target_relation, partition, target_root, list_only=false) %}
  {% set location = dbt_backfill._spark_partition_location(relation, partition) %}
  {% if location is none %}{{ return({'deleted': [], 'kept': []}) }}{% endif %}
  {% set path = dbt_backfill._spark_path(location) %}
  {% set root = dbt_backfill._spark_path(target_root) %}
  {% set leaf = partition.column ~ '=' ~ partition.value %}
  {% if not root or path.split('/')[-1] != leaf
        or not (path.startswith(root ~ '/_backfill/') or path == root ~ '/' ~ leaf) %}
    {{ return({'deleted': [], 'kept': [location ~ ' (not a directory dbt-backfill or the table made for partition '
                                        ~ partition.value ~ ')']}) }}
  {% endif %}
  {% if path == dbt_backfill._spark_path(dbt_backfill._spark_partition_location(target_relation, partition)) %}
    {{ return({'deleted': [], 'kept': [location ~ ' (the target reads it)']}) }}
  {% endif %}
  {% for row in dbt_backfill._execute('show tables in ' ~ relation.schema ~ " like '*_backup'").rows %}
    {% set other = api.Relation.create(database=relation.database, schema=relation.schema, identifier=row[1], type='table') %}
    {% if row[1] != relation.identifier and not row[2]
          and dbt_backfill._spark_path(dbt_backfill._spark_partition_location(other, partition)) == path %}
      {{ return({'deleted': [], 'kept': [location ~ ' (backup ' ~ dbt_backfill._relation_name(other) ~ ' names it)']}) }}
    {% endif %}
  {% endfor %}
  {% if list_only %}{{ return({'deleted': [location], 'kept': []}) }}{% endif %}
  {% set purge = api.Relation.create(database=relation.database, schema=relation.schema,
                                     identifier=relation.identifier ~ '_purge', type='table') %}
  {% do dbt_backfill._forget_columns(purge) %}
  {% do dbt_backfill._execute('drop table if exists ' ~ purge, fetch=false) %}
  {% do dbt_backfill._execute('create table ' ~ purge ~ ' like ' ~ target_relation, fetch=false) %}
  {% do dbt_backfill._execute('alter table ' ~ purge ~ ' add ' ~ dbt_backfill._spark_partition_spec(partition)
      ~ ' location ' ~ dbt_backfill._sql_literal(location), fetch=false) %}
  {% do dbt_backfill._execute('alter table ' ~ purge ~ ' drop ' ~ dbt_backfill._spark_partition_spec(partition), fetch=false) %}
  {% do dbt_backfill._execute('drop table ' ~ purge, fetch=false) %}
  {{ return({'deleted': [location], 'kept': []}) }}
{% endmacro %}

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

{# A location as one spelling, to compare two: `file:///x/` and `file:/x` are the same directory. #}
{% macro _spark_path(location) %}
  {{ return(modules.re.sub('^([a-zA-Z][a-zA-Z0-9+.-]*):/+', '\\1:/', (location or '') | trim).rstrip('/')) }}
{% endmacro %}
