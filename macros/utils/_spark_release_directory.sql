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

{# A location as one spelling, to compare two: `file:///x/` and `file:/x` are the same directory. #}
{% macro _spark_path(location) %}
  {{ return(modules.re.sub('^([a-zA-Z][a-zA-Z0-9+.-]*):/+', '\\1:/', (location or '') | trim).rstrip('/')) }}
{% endmacro %}
