{#
  The fingerprint of each of `values` (partitions of `relation`) with the scope's columns, as _fingerprint_in_scope
  gives it for one partition, in one statement grouped by the partition column instead of one statement each
  (issue 57: a plan of 100 small partitions paid ~7 ms of dbt's own work per statement). {value as text:
  fingerprint}. A
  partition with no rows gives no group: it is read alone, as before, so its fingerprint is the empty one the single
  read gives.
#}
{% macro _fingerprints_in_scope(relation, scope, values) %}
  {% set values = values | map('string') | unique(case_sensitive=true) | list %}
  {% if values | length < 2 %}
    {% set found = {} %}
    {% for value in values %}
      {% do found.update({value: dbt_backfill._fingerprint_in_scope(relation, scope, value, true)}) %}
    {% endfor %}
    {{ return(found) }}
  {% endif %}
  {% set names, key_names, additive_names = [], [], [] %}
  {% for column in scope.material_columns %}{% do names.append(column.name) %}{% endfor %}
  {% for column in scope.key_columns %}{% do key_names.append(column.name) %}{% endfor %}
  {% for column in scope.additive_columns %}{% do additive_names.append(column.name) %}{% endfor %}
  {% set columns = dbt_backfill._columns(relation, names, 'material column') %}
  {% set additive_columns = dbt_backfill._columns(relation, additive_names, 'additive') %}
  {% set partition_column = dbt_backfill._columns(relation, [scope.partition_column.name], 'partition_by')[0] %}
  {% set named = [] %}
  {% for value in values %}
    {% do named.append('(' ~ dbt_backfill._partition_predicate(partition_column, value) ~ ')') %}
  {% endfor %}
  {% set sql = dbt_backfill._fingerprint_sql(relation, columns, dbt_backfill._columns(relation, key_names, 'business_key'),
                                             additive_columns, named | join(' or '), partition_column) %}
  {% set found = {} %}
  {% for row in dbt_backfill._execute(sql).rows if row['bf_partition'] in values %}
    {% do found.update({row['bf_partition']: dbt_backfill._fingerprint_of_row(row, columns, additive_columns, none)}) %}
  {% endfor %}
  {% for value in values if value not in found %}
    {% do found.update({value: dbt_backfill._fingerprint_in_scope(relation, scope, value, true)}) %}
  {% endfor %}
  {{ return(found) }}
{% endmacro %}
