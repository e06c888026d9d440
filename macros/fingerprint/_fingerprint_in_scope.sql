{# Fingerprint `relation` (all of it, or one partition) with the scope's columns, taking each column's type from
   the relation itself: a stage built by CREATE TABLE AS may type a column differently from the target.
   `count_duplicate_keys` adds the grouping by key that the plan's check of a build needs. #}
{% macro _fingerprint_in_scope(relation, scope, partition_value=none, with_partition=false, count_duplicate_keys=false) %}
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
      dbt_backfill._partition_predicate(own_partition_column, partition_value) if with_partition else none,
      count_duplicate_keys)) }}
{% endmacro %}
