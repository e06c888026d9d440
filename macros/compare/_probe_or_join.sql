{#
  The statement a key check runs (keys_in_two_partitions, _keys_also_outside): `probed`, which looks each key up in
  `target_relation` (a lateral subquery per key), or `joined`, which reads the target once and joins it by hashing.
  The probe is chosen only when the `keys` checked are at most a tenth of the target's rows as its statistics
  count them (an index probe costs about ten times a hashed row here: DECISIONS row 85; a target never analyzed
  is joined), the target is a plain table with no child and a valid B-tree index led by exactly `key_columns`
  (no predicate, no expression), and EXPLAIN (nothing is run) shows the probe reaches the target through an index
  and nothing else (an index or bitmap scan of it, no other scan): a cost that grows with the keys checked, not
  with the target's history. (A helper's attack: an index led by the date, and a child table without the index,
  each made every probe read the whole history: 1.4 s and 3.2 s against 7 and 12 ms joined.) Either way the cost
  is bounded by the statement, never by a planner's bet: a probe without an index is never run (PostgreSQL;
  elsewhere always the join).
#}
{% macro _probe_or_join(probed, joined, target_relation, keys, key_columns) %}
  {{ return(adapter.dispatch('_probe_or_join', 'dbt_backfill')(probed, joined, target_relation, keys, key_columns)) }}
{% endmacro %}

{% macro default___probe_or_join(probed, joined, target_relation, keys, key_columns) %}
  {{ return(joined) }}
{% endmacro %}

{% macro postgres___probe_or_join(probed, joined, target_relation, keys, key_columns) %}
  {# a plain table with no child (a child's rows are read with it, each through its own indexes or none), at
     least ten times as many rows as keys, and a valid B-tree index led by exactly the key's columns, with no
     predicate and no expression: the only index a probe by key reads a few entries of #}
  {% set oid = dbt_backfill._pg_oid(target_relation) %}
  {% set key_names = [] %}{% for column in key_columns %}{% do key_names.append(dbt_backfill._sql_literal(column.name)) %}{% endfor %}
  {% set served = dbt_backfill._execute("select count(*) from pg_catalog.pg_class c where c.oid = " ~ oid
      ~ " and c.relkind = 'r' and c.reltuples >= 10 * " ~ (keys | int)
      ~ " and not exists (select from pg_catalog.pg_inherits h where h.inhparent = c.oid)"
      ~ " and exists (select from pg_catalog.pg_index i join pg_catalog.pg_class ic on ic.oid = i.indexrelid"
      ~ " join pg_catalog.pg_am am on am.oid = ic.relam where i.indrelid = c.oid and am.amname = 'btree'"
      ~ " and i.indisvalid and i.indisready and i.indpred is null and i.indexprs is null"
      ~ " and (select array_agg(a.attname::text order by a.attname::text) from pg_catalog.pg_attribute a"
      ~ " where a.attrelid = c.oid and a.attnum = any ((i.indkey::int2[])[0:" ~ (key_columns | length - 1) ~ "]))"
      ~ " = (select array_agg(k order by k) from unnest(array[" ~ key_names | join(', ') ~ "]::text[]) k))").rows[0][0] %}
  {% if (served | int) == 0 %}{{ return(joined) }}{% endif %}
  {% set target_names = [target_relation.identifier, '"' ~ target_relation.identifier ~ '"'] %}
  {% set lines = [] %}
  {% for row in dbt_backfill._execute('explain ' ~ probed).rows %}{% do lines.append(row[0] | string) %}{% endfor %}
  {% set by_index = [] %}
  {% for line in lines %}
    {% set words = line.replace('->', ' ').split() %}
    {# "<Node Type> on <relation> [alias]": a scan of the target that is not an index's rules the probe out #}
    {% for at in range(1, words | length - 1) if words[at] == 'on' and words[at + 1] in target_names %}
      {% if 'Index' in words[:at] or words[at - 3:at] == ['Bitmap', 'Heap', 'Scan'] %}
        {% do by_index.append(true) %}
      {% else %}
        {{ return(joined) }}
      {% endif %}
    {% endfor %}
  {% endfor %}
  {{ return(probed if by_index else joined) }}
{% endmacro %}
