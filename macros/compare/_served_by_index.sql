{#
  Whether `probe_sql`, a statement that looks each of a few keys up in `target_relation` (a lateral subquery per
  key), reaches the target only through an index: EXPLAIN (nothing is run) shows an index scan of it and no
  sequential scan. The key checks (keys_in_two_partitions, _keys_also_outside) then probe the target's key index,
  a cost that grows with the keys checked, not with the target's history; otherwise they join it by hashing, one
  read of the target whatever its statistics. Either way the cost is bounded by the statement, never by a planner's
  bet: a lateral probe is run only when the plan it would run is an index's (PostgreSQL; elsewhere always the join).
#}
{% macro _served_by_index(probe_sql, target_relation) %}
  {{ return(adapter.dispatch('_served_by_index', 'dbt_backfill')(probe_sql, target_relation)) }}
{% endmacro %}

{% macro default___served_by_index(probe_sql, target_relation) %}
  {{ return(false) }}
{% endmacro %}

{% macro postgres___served_by_index(probe_sql, target_relation) %}
  {% set names = [target_relation.identifier, '"' ~ target_relation.identifier ~ '"'] %}
  {% set by_index = [] %}
  {% for row in dbt_backfill._execute('explain ' ~ probe_sql).rows %}
    {% set words = (row[0] | string).replace('->', ' ').split() %}
    {# "<Node Type> on <relation> [alias]": a scan of the target that is not an index's refuses the probe #}
    {% for at in range(1, words | length - 1) if words[at] == 'on' and words[at + 1] in names %}
      {% if 'Index' in words[:at] or words[at - 3:at] == ['Bitmap', 'Heap', 'Scan'] %}
        {% do by_index.append(true) %}
      {% else %}
        {{ return(false) }}
      {% endif %}
    {% endfor %}
  {% endfor %}
  {{ return(by_index | length > 0) }}
{% endmacro %}
