{#
  The statement a key check runs (keys_in_two_partitions, _keys_also_outside): `probed`, which looks each key up in
  `target_relation` (a lateral subquery per key), or `joined`, which reads the target once and joins it by hashing.
  The probe is chosen only when the `keys` checked are at most a tenth of the target's rows as its statistics
  count them (an index probe costs about ten times a hashed row here: DECISIONS row 85; a target never analyzed
  is joined) and EXPLAIN (nothing is run) shows the probe reaches the target through an index and nothing else
  (an index or bitmap scan of it, no other scan): a cost that grows with the keys checked, not with the target's
  history. Either way the cost is bounded by the statement, never by a planner's bet: a probe without an index is
  never run (PostgreSQL; elsewhere always the join).
#}
{% macro _probe_or_join(probed, joined, target_relation, keys) %}
  {{ return(adapter.dispatch('_probe_or_join', 'dbt_backfill')(probed, joined, target_relation, keys)) }}
{% endmacro %}

{% macro default___probe_or_join(probed, joined, target_relation, keys) %}
  {{ return(joined) }}
{% endmacro %}

{% macro postgres___probe_or_join(probed, joined, target_relation, keys) %}
  {% set counted = dbt_backfill._execute('select reltuples from pg_catalog.pg_class where oid = '
      ~ dbt_backfill._pg_oid(target_relation)).rows %}
  {% if not counted or counted[0][0] is none or (counted[0][0] | float) < 10 * (keys | int) %}{{ return(joined) }}{% endif %}
  {% set names = [target_relation.identifier, '"' ~ target_relation.identifier ~ '"'] %}
  {% set lines = [] %}
  {% for row in dbt_backfill._execute('explain ' ~ probed).rows %}{% do lines.append(row[0] | string) %}{% endfor %}
  {% set by_index = [] %}
  {% for line in lines %}
    {% set words = line.replace('->', ' ').split() %}
    {# "<Node Type> on <relation> [alias]": a scan of the target that is not an index's rules the probe out #}
    {% for at in range(1, words | length - 1) if words[at] == 'on' and words[at + 1] in names %}
      {% if 'Index' in words[:at] or words[at - 3:at] == ['Bitmap', 'Heap', 'Scan'] %}
        {% do by_index.append(true) %}
      {% else %}
        {{ return(joined) }}
      {% endif %}
    {% endfor %}
  {% endfor %}
  {{ return(probed if by_index else joined) }}
{% endmacro %}
