{#
  Before clean drops `relation` (a run's build, written copy or backup): release the storage a drop would leave
  behind, partition {column, value} (a _write_unit). Returns {deleted, kept}: directories deleted, and directories
  left with why. With list_only, only says what it would delete. PostgreSQL and DuckDB: dropping a table is all
  there is. Spark: a written copy and a backup are external tables whose partition is a directory under the
  target's location (one the target may read: see _spark_release_directory).
#}
{% macro _release_storage(relation, target_relation, unit, list_only=false) %}
  {{ return((dbt_backfill._format_leaf('_release_storage', unit.get('format')) or adapter.dispatch('_release_storage', 'dbt_backfill'))(relation, target_relation, unit, list_only)) }}
{% endmacro %}

{% macro default___release_storage(relation, target_relation, unit, list_only=false) %}
  {{ return({'deleted': [], 'kept': []}) }}
{% endmacro %}

{% macro spark___release_storage(relation, target_relation, unit, list_only=false) %}
  {% set layout = dbt_backfill._spark_table_layout(relation) %}
  {# a build (a managed, unpartitioned table): dropping it deletes its files #}
  {% if layout.type != 'EXTERNAL' or layout.partition_columns != [unit.column | lower] %}
    {{ return({'deleted': [], 'kept': []}) }}
  {% endif %}
  {% set released = {'deleted': [], 'kept': []} %}
  {% for value in ([unit.value] if unit.value is not none else dbt_backfill._spark_partition_values(relation, unit.column)) %}
    {% set one = dbt_backfill._spark_release_directory(relation, target_relation, dbt_backfill._merged(unit, {'value': value}),
                                                       unit.root, list_only) %}
    {% do released.deleted.extend(one.deleted) %}{% do released.kept.extend(one.kept) %}
  {% endfor %}
  {{ return(released) }}
{% endmacro %}
