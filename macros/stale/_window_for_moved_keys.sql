{#
  Where the business keys of the stale partitions went: a key the target holds in a stale partition and the model
  now builds only in another compared partition (a key that moved days) is dropped from the partition it left only
  by a plan that also names the partition it moved to (plan refuses a key moving out of its scope) and whose build
  of the partition it left reads the day it moved to. So the scan's repair names those partitions too (moved_to),
  and where a day lies outside the partition's input window, the plan's window check would refuse the repair (its
  windowed and wider builds differ), as it should: the scan names the window the moved keys need, the days from the
  partition each left to the one it moved to, after (or before) it. One statement over the target's stale
  partitions and the scan's session table (the model's rows of the compared partitions), keys compared by their
  canonical text, grouped by the partition moved to. Returns none when no key moved, else {moved: count, moved_to:
  [values], before, after, first: the declaration to make, in words, or none where the window holds}.
#}
{% macro _window_for_moved_keys(model, relation, scope, compared, windowing, stale) %}
  {% if not stale or compared.rows is none %}{{ return(none) }}{% endif %}
  {% set string_type = dbt.type_string() %}
  {% set windowed = windowing.mode == 'windowed' %}
  {% set key = dbt_backfill._key_expression(relation, scope) %}
  {% set part = adapter.quote(scope.partition_column.name) %}
  {% set query %}
    with t as (select {{ key }} as bf_key, {{ part }} as bf_part from {{ relation }}
               where {{ dbt_backfill._partition_in(scope.partition_column, stale | map(attribute='value') | list) }}),
    m as (select {{ key }} as bf_key, {{ part }} as bf_part from {{ compared.rows }}),
    moved as (
      select t.bf_key, t.bf_part as bf_from, m.bf_part as bf_to, {{ 'm.bf_part - t.bf_part' if windowed else '0' }} as bf_days
      from t join m on t.bf_key = m.bf_key and t.bf_part <> m.bf_part
      where not exists (select 1 from m o where o.bf_key = t.bf_key and o.bf_part = t.bf_part)
    )
    select cast(bf_to as {{ string_type }}) as bf_to, count(*) as bf_moved,
           min(bf_key || ': ' || cast(bf_from as {{ string_type }}) || ' -> ' || cast(bf_to as {{ string_type }})) as bf_shown,
           max(case when bf_days > 0 then bf_days else 0 end) as bf_after,
           max(case when bf_days < 0 then -bf_days else 0 end) as bf_before
    from moved group by bf_to
  {% endset %}
  {% set found = dbt_backfill._execute(query).rows %}
  {% if not found %}{{ return(none) }}{% endif %}
  {% set family = dbt_backfill._type_family(scope.partition_column.data_type) %}
  {% set moved_to, shown = [], [] %}
  {% for row in found %}{% do moved_to.append(dbt_backfill._partition_text(row['bf_to'], family)) %}{% do shown.append(row['bf_shown']) %}{% endfor %}
  {% set moved = found | map(attribute='bf_moved') | map('int') | sum %}
  {% set before = [found | map(attribute='bf_before') | map('int') | max, windowing.before] | max %}
  {% set after = [found | map(attribute='bf_after') | map('int') | max, windowing.after] | max %}
  {% set result = {'moved': moved, 'moved_to': dbt_backfill._in_order(moved_to, family), 'before': before, 'after': after,
                   'first': none} %}
  {% if windowed and (before != windowing.before or after != windowing.after) %}
    {% set between = 'the stale partitions' if moved_to | reject('in', stale | map(attribute='value') | list) | list | length == 0
                     else 'the partitions to repair' %}
    {% do result.update({'first': moved ~ ' key(s) moved between ' ~ between ~ ' (' ~ (shown | sort)[:3] | join(', ')
        ~ (', …' if moved > [shown | length, 3] | min else '') ~ '), beyond the input window (' ~ windowing.declared_by ~ ': '
        ~ windowing.before ~ ' day(s) before, ' ~ windowing.after ~ ' after): the plan would be refused by its window '
        ~ 'check. Declare meta.backfill.input_window: {before: ' ~ before ~ ', after: ' ~ after ~ '} on ' ~ model
        ~ ' (the least the moved keys need; the plan proves it), then run the repair'}) %}
  {% endif %}
  {{ return(result) }}
{% endmacro %}
