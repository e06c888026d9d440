{#
  Resolve the scope the CLI passes (names) against the target relation (columns and their types):
  partition column, business key, additive and material columns. Raises naming what is missing.
#}
{% macro _backfill_scope(target_relation, partition_by, business_key, additive, material_columns) %}
  {% set partition_column = dbt_backfill._columns(target_relation, [partition_by], 'partition_by')[0] %}
  {% set key_columns = dbt_backfill._columns(target_relation, business_key, 'business_key') %}
  {% set additive_columns = dbt_backfill._columns(target_relation, additive, 'additive') %}
  {% set material = dbt_backfill._columns(target_relation, material_columns, 'material column') %}
  {{ return({
      'partition_column': partition_column,
      'key_columns': key_columns,
      'additive_columns': additive_columns,
      'material_columns': material,
  }) }}
{% endmacro %}

{# Fingerprint `relation` (all of it, or one partition) with the scope's columns, taking each column's type from
   the relation itself: a stage built by CREATE TABLE AS may type a column differently from the target. #}
{% macro _fingerprint_in_scope(relation, scope, partition_value=none, with_partition=false) %}
  {% set names = [] %}
  {% for column in scope.material_columns %}{% do names.append(column.name) %}{% endfor %}
  {% set key_names = [] %}
  {% for column in scope.key_columns %}{% do key_names.append(column.name) %}{% endfor %}
  {% set additive_names = [] %}
  {% for column in scope.additive_columns %}{% do additive_names.append(column.name) %}{% endfor %}
  {% set own_partition_column = dbt_backfill._columns(relation, [scope.partition_column.name], 'partition_by')[0] %}
  {{ return(dbt_backfill.fingerprint_relation(
      relation,
      dbt_backfill._columns(relation, names, 'material column'),
      dbt_backfill._columns(relation, key_names, 'business_key'),
      dbt_backfill._columns(relation, additive_names, 'additive'),
      dbt_backfill._partition_predicate(own_partition_column, partition_value) if with_partition else none)) }}
{% endmacro %}
