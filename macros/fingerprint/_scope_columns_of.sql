{# The scope's columns as `relation` itself declares them (a stage built by CREATE TABLE AS may type a column
   differently from the target): {partition, material, key_columns, additive}. What a fingerprint within the scope reads,
   alone (_fingerprint_in_scope) or grouped by partition (_fingerprints_in_scope). #}
{% macro _scope_columns_of(relation, scope) %}
  {% set names, key_names, additive_names = [], [], [] %}
  {% for column in scope.material_columns %}{% do names.append(column.name) %}{% endfor %}
  {% for column in scope.key_columns %}{% do key_names.append(column.name) %}{% endfor %}
  {% for column in scope.additive_columns %}{% do additive_names.append(column.name) %}{% endfor %}
  {# the partition column first: where several are missing, the one named is the partition column, as before #}
  {% set partition, material, key_columns, additive = dbt_backfill._columns_each(relation,
      [([scope.partition_column.name], 'partition_by'), (names, 'material column'), (key_names, 'business_key'),
       (additive_names, 'additive')]) %}
  {{ return({'partition': partition[0], 'material': material, 'key_columns': key_columns, 'additive': additive}) }}
{% endmacro %}
