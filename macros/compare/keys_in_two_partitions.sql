{#
  Business keys that would end up in two partitions after the backfill: a key of one partition's stage that the
  target also holds in a partition outside the named set (a trip that moved days, backfilled on one side only),
  or a key in two stages. Returns up to `sample_size` {key, partition, also_in}, the key as its columns' text
  joined by '|'. The key columns are compared as they are, as apply's _keys_also_outside compares them, so an
  index on the business key serves and no expression is computed over the target's history (the canonical text
  of every key outside the scope was 5.2 s of a 100-day plan's 22 s of SQL: docs/DECISIONS.md). They can be: a
  stage holds its rows typed as the target's columns (macros/stage/_stage_types_against_target.sql). A NULL key
  matches nothing here; the review refuses a stage whose business key is null.
  Usually empty, so written so that no plan can make it a nested loop over the stages and the target: each side's
  matches are grouped by key before the sample is ordered and cut (an `order by … limit` straight over the join let
  PostgreSQL, without statistics on a fresh stage and an unindexed target, bet on a nested loop that the limit would
  end early; with no collision it read 100,000 × 961,134 rows for 12 minutes: docs/DECISIONS.md).
#}
{% macro keys_in_two_partitions(target_relation, stages, scope, sample_size=5) %}
  {% set string_type = dbt.type_string() %}
  {% set values = [] %}
  {% for stage in stages %}{% do values.append(stage.value) %}{% endfor %}
  {% set keys = [] %}
  {% set shown = [] %}
  {% set same_key = [] %}
  {% set grouped = [] %}
  {% for column in scope.key_columns %}
    {% do keys.append(adapter.quote(column.name)) %}
    {% do grouped.append('s.' ~ adapter.quote(column.name)) %}
    {% do shown.append('cast(c.' ~ adapter.quote(column.name) ~ ' as ' ~ string_type ~ ')') %}
    {% do same_key.append('{0}.' ~ adapter.quote(column.name) ~ ' = {1}.' ~ adapter.quote(column.name)) %}
  {% endfor %}
  {% set same_key = same_key | join(' and ') %}
  {% set outside = dbt_backfill._outside_partitions(scope, values, 'o') %}
  {% set also_in = 'min(cast(o.' ~ adapter.quote(scope.partition_column.name) ~ ' as ' ~ string_type ~ '))' %}
  {# the target's rows outside the named partitions, by each stage key: probed through its key index where that is
     bounded and cheaper, else one hash join (_probe_or_join; count: a NULL partition value is a match too) #}
  {% set probed %}
      select distinct {{ grouped | join(', ') }}, s.bf_partition, o.bf_also_in
      from stage_keys s cross join lateral (
        select count(*) as bf_found, {{ also_in }} as bf_also_in
        from {{ target_relation }} o where {{ same_key.format('s', 'o') }} and {{ outside }}
      ) o
      where o.bf_found > 0
  {% endset %}
  {% set joined %}
      select {{ grouped | join(', ') }}, s.bf_partition, {{ also_in }} as bf_also_in
      from stage_keys s join {{ target_relation }} o on {{ same_key.format('s', 'o') }}
      where {{ outside }}
      group by {{ grouped | join(', ') }}, s.bf_partition
  {% endset %}
  {# the statement is this head, one of the two above, then the tail #}
  {% set head %}
    with stage_keys as (
      {% for stage in stages %}
      select {{ keys | join(', ') }}, cast({{ dbt_backfill._sql_literal(stage.value) }} as {{ string_type }}) as bf_partition
      from {{ stage.relation }}
      {% if not loop.last %}union all{% endif %}
      {% endfor %}
    ),
    collisions as (
  {% endset %}
  {% set tail %}
      {# one stage cannot hold a key twice across stages; its self-join read it twice more and, estimated at
         millions of rows, made the planner compile the statement (JIT, 0.2 s at 200,000 rows) #}
      {% if stages | length > 1 %}
      union all
      select {{ grouped | join(', ') }}, s.bf_partition, min(b.bf_partition)
      from stage_keys s join stage_keys b on {{ same_key.format('s', 'b') }} and s.bf_partition < b.bf_partition
      group by {{ grouped | join(', ') }}, s.bf_partition
      {% endif %}
    )
    select {{ shown | join(" || '|' || ") }} as bf_key, c.bf_partition, c.bf_also_in
    from collisions c order by 1, 2 limit {{ sample_size | int }}
  {% endset %}
  {% set query = dbt_backfill._probe_or_join(head ~ probed ~ tail, head ~ joined ~ tail, target_relation,
                                             stages | sum(attribute='rows'), scope.key_columns) %}
  {% set found = [] %}
  {% for row in dbt_backfill._execute(query).rows %}
    {% do found.append({'key': row['bf_key'], 'partition': row['bf_partition'],
        'also_in': row['bf_also_in'] if row['bf_also_in'] is not none else 'a NULL partition'}) %}
  {% endfor %}
  {{ return(found) }}
{% endmacro %}
