{#
  The fingerprint of each of `values` (partitions of `relation`) with the scope's columns, as _fingerprint_in_scope
  gives it for one partition, in one statement grouped by the partition column instead of one statement each
  (issue 57: a plan of 100 small partitions paid ~7 ms of dbt's own work per statement). {value as text: fingerprint}.
  A partition with no rows gives no group: it is read alone, as before, so its fingerprint is the empty one the
  single read gives.
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
  {% set own = dbt_backfill._scope_columns_of(relation, scope) %}
  {% set named = [] %}
  {% for value in values %}
    {% do named.append('(' ~ dbt_backfill._partition_predicate(own.partition, value) ~ ')') %}
  {% endfor %}
  {% set sql = dbt_backfill._fingerprint_sql(relation, own.material, own.key_columns, own.additive, named | join(' or '),
                                             own.partition) %}
  {% set found = {} %}
  {% for row in dbt_backfill._execute(sql).rows if row['bf_partition'] in values %}
    {% do found.update({row['bf_partition']: dbt_backfill._fingerprint_of_row(row, own.material, own.additive, none)}) %}
  {% endfor %}
  {% for value in values if value not in found %}
    {% do found.update({value: dbt_backfill._fingerprint_in_scope(relation, scope, value, true)}) %}
  {% endfor %}
  {{ return(found) }}
{% endmacro %}
