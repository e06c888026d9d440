{#
  A known-good partition outside the backfill, for apply to fingerprint before the first replacement and after
  every batch: it must not change. A closed partition: the nearest older partition the target holds (history
  nobody else should be writing), else the nearest newer one that is not the table's newest (the partition the
  live job is still writing: its scheduled run changing it is no intruder); none when there is no such partition.
#}
{% macro _control_partition(target_relation, scope, values) %}
  {% set column = adapter.quote(scope.partition_column.name) %}
  {% set literals = [] %}
  {% for value in values %}
    {% do literals.append('cast(' ~ dbt_backfill._sql_literal(value) ~ ' as ' ~ scope.partition_column.data_type ~ ')') %}
  {% endfor %}
  {% set bounds = ('least(' ~ literals | join(', ') ~ ')', 'greatest(' ~ literals | join(', ') ~ ')') if literals | length > 1 else (literals[0], literals[0]) %}
  {% set query %}
    select cast(coalesce(
        (select max({{ column }}) from {{ target_relation }} where {{ column }} < {{ bounds[0] }}),
        (select min({{ column }}) from {{ target_relation }} where {{ column }} > {{ bounds[1] }}
           and {{ column }} < (select max({{ column }}) from {{ target_relation }}))
      ) as {{ dbt.type_string() }}) as control_value
  {% endset %}
  {% set value = dbt_backfill._execute(query).rows[0]['control_value'] %}
  {% if value is none %}{{ return(none) }}{% endif %}
  {{ return({'value': value | string,
             'fingerprint': dbt_backfill._fingerprint_in_scope(target_relation, scope, value | string, true)}) }}
{% endmacro %}
