{#
  Whether the plan that repairs the stale partitions can hold their input windows: a business key the target holds
  in one stale partition and the model now builds in another (a key that moved days) is dropped from the partition
  it left only by a build that reads the day it moved to. Where that day lies outside the partition's input window,
  the plan's window check refuses the repair (its windowed and wider builds differ), as it should. So the scan names
  the window the moved keys need: for each, the days from the partition it left to the one it moved to, after (or
  before) it. Read over the target and the scan's session table (the model's rows of the compared partitions), keys
  compared by their canonical text. Returns none when every moved key is within the window, else {before, after,
  moved: count, sample: [{key, from, to}], first: the declaration to make, in words}.
#}
{% macro _window_for_moved_keys(model, relation, scope, rows, windowing, stale) %}
  {% if windowing.mode != 'windowed' or stale | length < 2 or rows is none %}{{ return(none) }}{% endif %}
  {% set key = dbt_backfill._key_expression(relation, scope) %}
  {% set part = adapter.quote(scope.partition_column.name) %}
  {% set where = dbt_backfill._partition_in(scope.partition_column, stale | map(attribute='value') | list) %}
  {% set query %}
    with t as (select {{ key }} as bf_key, {{ part }} as bf_part from {{ relation }} where {{ where }}),
    m as (select {{ key }} as bf_key, {{ part }} as bf_part from {{ rows }} where {{ where }}),
    moved as (
      select t.bf_key, t.bf_part as bf_from, m.bf_part as bf_to, m.bf_part - t.bf_part as bf_days
      from t join m on t.bf_key = m.bf_key and t.bf_part <> m.bf_part
      where not exists (select 1 from m o where o.bf_key = t.bf_key and o.bf_part = t.bf_part)
        and not exists (select 1 from t o where o.bf_key = m.bf_key and o.bf_part = m.bf_part)
    )
    select bf_key, cast(bf_from as {{ dbt.type_string() }}), cast(bf_to as {{ dbt.type_string() }}),
           count(*) over () as bf_moved,
           coalesce(max(case when bf_days > 0 then bf_days end) over (), 0) as bf_after,
           coalesce(max(case when bf_days < 0 then -bf_days end) over (), 0) as bf_before
    from moved order by bf_key limit 3
  {% endset %}
  {% set found = dbt_backfill._execute(query) %}
  {% if not found.rows %}{{ return(none) }}{% endif %}
  {% set first = found.rows[0] %}
  {% set before, after = [first[5] | int, windowing.before] | max, [first[4] | int, windowing.after] | max %}
  {% if before == windowing.before and after == windowing.after %}{{ return(none) }}{% endif %}
  {% set sample = [] %}
  {% for row in found.rows %}{% do sample.append({'key': row[0], 'from': row[1], 'to': row[2]}) %}{% endfor %}
  {% set shown = [] %}
  {% for s in sample %}{% do shown.append(s.key ~ ': ' ~ s['from'] ~ ' -> ' ~ s.to) %}{% endfor %}
  {% set first_step = first[3] ~ ' key(s) moved between the stale partitions (' ~ shown | join(', ')
      ~ (', …' if first[3] > sample | length else '') ~ '), beyond the input window (' ~ windowing.declared_by ~ ': '
      ~ windowing.before ~ ' day(s) before, ' ~ windowing.after ~ ' after): the plan would be refused by its window '
      ~ 'check. Declare meta.backfill.input_window: {before: ' ~ before ~ ', after: ' ~ after ~ '} on ' ~ model
      ~ ' (the least the moved keys need; the plan proves it), then run the repair' %}
  {{ return({'before': before, 'after': after, 'moved': first[3], 'sample': sample, 'first': first_step}) }}
{% endmacro %}
