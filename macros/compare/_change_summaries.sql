{#
  change_summary of many pairs ({target, stage, value, target_rows}) in two statements, not two a pair (issue 57: a
  plan of 100 partitions ran 200): each pair's lean rows labelled by its position (bf_part), joined by position and
  key, counted and sampled per position. The same counts and samples as each pair read alone: a pair whose rows do
  not differ gives no group, and its counts are zeros. Returns the summaries in the pairs' order.
#}
{% macro _change_summaries(pairs, scope, sample_size=5, typed_by=none, excluded=[]) %}
  {% if not pairs %}{{ return([]) }}{% endif %}
  {% set names = [] %}{% for c in scope.material_columns %}{% do names.append(c.name) %}{% endfor %}
  {% set all_names = names + (excluded | list) %}
  {% set string_type = dbt.type_string() %}
  {% set lean = {'target': [], 'stage': []} %}
  {% set pair_sides = [] %}
  {% set read_as = {} %}{# each relation's canonical columns and key, worked out once: most pairs share the target #}
  {% for pair in pairs %}
    {% set sides = {'label': 'cast(' ~ dbt_backfill._sql_literal(loop.index0 | string) ~ ' as ' ~ string_type ~ ')',
                    'target': dbt_backfill._lean_side(pair.target, pair.target, scope, all_names, pair.value, true, read_as),
                    'stage': dbt_backfill._lean_side(pair.stage, typed_by or pair.stage, scope, all_names, pair.value,
                                                     typed_by is not none, read_as)} %}
    {% for side in ['target', 'stage'] %}
      {% do lean[side].append(sides[side]) %}
    {% endfor %}
    {% do pair_sides.append(sides) %}
  {% endfor %}
  {% do lean.update({'target': dbt_backfill._lean_rows(lean.target, pair_sides),
                     'stage': dbt_backfill._lean_rows(lean.stage, pair_sides)}) %}
  {% set kinds = ['added', 'removed', 'changed', 'excluded'] %}
  {% set counts, keys = [], [] %}
  {% for pair in pairs %}
    {% do counts.append({}) %}
    {% do keys.append({'added': [], 'removed': [], 'changed': [], 'excluded': []}) %}
  {% endfor %}
  {% for row in dbt_backfill._execute(dbt_backfill._change_query(lean, names | length, all_names | length, kinds, sample_size)).rows %}
    {% set position = row['bf_part'] | int %}
    {% if row['bf_kind'] == 'count' %}
      {% for kind in kinds + ['excluded_any'] %}{% do counts[position].update({kind: row['bf_' ~ kind] | int}) %}{% endfor %}
      {% for name in all_names %}{% do counts[position].update({'c:' ~ name: row['bf_d' ~ loop.index] | int}) %}{% endfor %}
    {% else %}
      {% do keys[position][row['bf_kind']].append(row['bf_key']) %}
    {% endif %}
  {% endfor %}
  {% set sampled = [] %}
  {% for by_kind in keys %}
    {% for kind in kinds %}{% do by_kind[kind].sort() %}{% endfor %}
    {% do sampled.append(by_kind.changed + by_kind.excluded) %}
  {% endfor %}
  {% set samples = dbt_backfill._changed_columns(pair_sides, all_names, sampled) %}
  {% set summaries = [] %}
  {% for pair in pairs %}
    {% do summaries.append(dbt_backfill._summary_of(counts[loop.index0], keys[loop.index0], samples[loop.index0],
        all_names, excluded, pair.get('target_rows'))) %}
  {% endfor %}
  {{ return(summaries) }}
{% endmacro %}

{# One side of a pair as change_summary reads it: {relation, key, fields, where, lean (the select list and from of
   its lean rows), columns (its select list alone), alike (where the relation is read with its own columns' types:
   those types and that select list, which relations read alike share; else none), floats (its float columns, whose
   sampled values are shown rounded: _float_shown)}, its columns typed by `typed`, and, when `filtered`, the rows of
   `partition_value` only (a NULL value selects none). `read_as`: the key, fields and floats already worked out for a
   typing relation, by its name. #}
{% macro _lean_side(relation, typed, scope, names, partition_value, filtered, read_as) %}
  {% set typed_name = dbt_backfill._relation_name(typed) %}
  {% if typed_name not in read_as %}
    {% set fields, floats, lean = [], [], [] %}
    {% set key_names = scope.key_columns | map(attribute='name') | list %}
    {% set columns, key_columns = dbt_backfill._columns_each(typed, [(names, 'material column'), (key_names, 'business_key')]) %}
    {% for column in columns %}
      {% do fields.append(dbt_backfill.canonical_text(column.name, column.data_type)) %}
      {% do lean.append(fields[-1] ~ ' as bf_c' ~ loop.index) %}
      {% if dbt_backfill._type_family(column.data_type) == 'float' %}{% do floats.append(column.name) %}{% endif %}
    {% endfor %}
    {% set key = dbt_backfill._key_expression(typed, scope) %}
    {% set select_list = key ~ ' as bf_key, ' ~ lean | join(', ') %}
    {% do read_as.update({typed_name: {'key': key, 'fields': fields, 'floats': floats, 'columns': select_list,
        'names': names + key_names,
        'alike': select_list ~ '\x1f' ~ dbt_backfill._types_signature(columns + key_columns)}}) %}
  {% endif %}
  {% set read = read_as[typed_name] %}
  {% set where = dbt_backfill._partition_predicate(scope.partition_column, partition_value) if filtered else none %}
  {{ return({'relation': relation, 'key': read.key, 'fields': read.fields, 'where': where, 'floats': read.floats,
             'columns': read.columns, 'names': read.names,
             'alike': read.alike if dbt_backfill._relation_name(relation) == typed_name else none,
             'lean': read.columns ~ ' from ' ~ relation ~ (' where ' ~ where if where else '')}) }}
{% endmacro %}

{# The lean rows of one side of every pair (`sides`, in the pairs' order; `pair_sides` for their labels), as selects
   to join by union: the sides read alike (_lean_side's `alike`) in one select whose expressions are written once,
   over the union of their rows as they are (_union_of_alike); any other side in a select of its own. DuckDB planned
   the plan's 200-branch change summaries, each branch with every column's canonical text, longer than it ran them
   (issue 57). #}
{% macro _lean_rows(sides, pair_sides) %}
  {% set groups, selects = {}, [] %}
  {% for side in sides %}
    {% set label = pair_sides[loop.index0].label %}
    {% if side.alike is none %}
      {% do selects.append('select ' ~ label ~ ' as bf_part, ' ~ side.lean) %}
    {% else %}
      {% do groups.setdefault(side.alike, []).append({'side': side, 'part': {'relation': side.relation,
          'where': side.where, 'labels': [['bf_part', label]]}}) %}
    {% endif %}
  {% endfor %}
  {% for members in groups.values() %}
    {% set first = members[0].side %}
    {% set read = dbt_backfill._union_of_alike(members | map(attribute='part') | list, first.names) %}
    {% do selects.append('select ' ~ read.labels.bf_part ~ ' as bf_part, ' ~ first.columns ~ ' from ' ~ read.from) %}
  {% endfor %}
  {{ return(selects) }}
{% endmacro %}

{# A pair's summary from its counts, its sampled keys by kind and its sample (_change_summaries). #}
{% macro _summary_of(counts, keys, sample, names, excluded, target_rows) %}
  {% set columns = {} %}
  {% for name in names if counts.get('c:' ~ name, 0) > 0 %}{% do columns.update({name: counts['c:' ~ name]}) %}{% endfor %}
  {% set summary = {'added': counts.get('added', 0), 'removed': counts.get('removed', 0), 'changed': counts.get('changed', 0),
                    'sample': sample, 'added_keys': keys.added, 'removed_keys': keys.removed} %}
  {% if excluded or target_rows is not none %}
    {% do summary.update({'columns': columns, 'excluded': counts.get('excluded_any', 0)}) %}
  {% endif %}
  {% if target_rows is not none %}
    {% do summary.update({'compared': (target_rows | int) - summary.removed}) %}
  {% endif %}
  {{ return(summary) }}
{% endmacro %}

{# The statement of _change_summaries: the lean sides (`lean`: {target, stage}, a select each per pair, labelled
   bf_part) joined by pair and key, the differing keys kept with one flag per column (bf_d<i>: the column differs;
   the first `material` columns decide `changed`, the rest are excluded ones), then one row of counts per pair and
   the first `sample_size` keys of each kind per pair (one of `excluded`). #}
{% macro _change_query(lean, material, width, kinds, sample_size) %}
  {% set string_type = dbt.type_string() %}
  {% set differs, material_differs, excluded_differs = [], [], [] %}
  {% for i in range(1, width + 1) %}
    {% do differs.append('t.bf_c' ~ i ~ ' <> s.bf_c' ~ i) %}
    {% do (material_differs if i <= material else excluded_differs).append('t.bf_c' ~ i ~ ' <> s.bf_c' ~ i) %}
  {% endfor %}
  {% set query %}
    with differences as (
      select
        coalesce(t.bf_part, s.bf_part) as bf_part,
        coalesce(t.bf_key, s.bf_key) as bf_key,
        case when t.bf_key is null then 'added' when s.bf_key is null then 'removed'
             when {{ material_differs | join(' or ') or 'false' }} then 'changed' else 'excluded' end as bf_change,
        case when t.bf_key is not null and s.bf_key is not null and ({{ excluded_differs | join(' or ') or 'false' }})
             then 1 else 0 end as bf_excluded_any
        {%- for d in differs %},
        case when t.bf_key is not null and s.bf_key is not null and {{ d }} then 1 else 0 end as bf_d{{ loop.index }}
        {%- endfor %}
      from ({{ lean.target | join(' union all ') }}) t
      full outer join ({{ lean.stage | join(' union all ') }}) s on t.bf_part = s.bf_part and t.bf_key = s.bf_key
      where t.bf_key is null or s.bf_key is null or {{ differs | join(' or ') }}
    )
    select 'count' as bf_kind, bf_part
      {%- for kind in kinds %},
      cast(coalesce(sum(case when bf_change = '{{ kind }}' then 1 else 0 end), 0) as {{ string_type }}) as bf_{{ kind }}
      {%- endfor %},
      cast(coalesce(sum(bf_excluded_any), 0) as {{ string_type }}) as bf_excluded_any
      {%- for d in differs %},
      cast(coalesce(sum(bf_d{{ loop.index }}), 0) as {{ string_type }}) as bf_d{{ loop.index }}
      {%- endfor %},
      cast(null as {{ string_type }}) as bf_key
    from differences group by bf_part
    union all
    select bf_change, bf_part, {% for other in kinds %}cast(null as {{ string_type }}), {% endfor %}
           cast(null as {{ string_type }}), {% for d in differs %}cast(null as {{ string_type }}), {% endfor %}bf_key
    from (select bf_part, bf_key, bf_change,
                 row_number() over (partition by bf_part, bf_change order by bf_key) as bf_rank from differences) bf_ranked
    where bf_rank <= case when bf_change = 'excluded' then 1 else {{ sample_size | int }} end
  {% endset %}
  {{ return(query) }}
{% endmacro %}

{# For each pair's sampled changed keys (`keys`, by pair), the columns whose canonical text differs, with the old and
   new values: both sides read for those keys only, every pair in one statement. Returns a sample per pair. #}
{% macro _changed_columns(pair_sides, names, keys) %}
  {% set string_type = dbt.type_string() %}
  {% set selects, groups = [], {} %}
  {% for sides in pair_sides %}
    {% if keys[loop.index0] %}
      {% set literals = dbt_backfill._sql_literals(keys[loop.index0]) %}
      {% for side in ['target', 'stage'] %}
        {% set s = sides[side] %}
        {% set columns = [s.key ~ ' as bf_key'] %}
        {% for field in s.fields %}
          {% do columns.append(field ~ ' as bf_canonical_' ~ loop.index) %}
          {% do columns.append('cast(' ~ adapter.quote(names[loop.index0]) ~ ' as ' ~ string_type ~ ') as bf_value_' ~ loop.index) %}
        {% endfor %}
        {% set where = (s.where ~ ' and ' if s.where else '') ~ s.key ~ ' in (' ~ literals | join(', ') ~ ')' %}
        {% set labels = [['bf_side', "'" ~ side ~ "'"], ['bf_part', sides.label]] %}
        {% if s.alike is none %}
          {% do selects.append("select '" ~ side ~ "' as bf_side, " ~ sides.label ~ ' as bf_part, '
              ~ columns | join(', ') ~ ' from ' ~ s.relation ~ ' where ' ~ where) %}
        {% else %}
          {# read alike (_lean_side): the columns' expressions once, over the union of their rows (_lean_rows) #}
          {% set group = groups.setdefault(side ~ '\x1f' ~ s.alike, {'columns': columns, 'names': s.names, 'parts': []}) %}
          {% do group.parts.append({'relation': s.relation, 'where': where, 'labels': labels}) %}
        {% endif %}
      {% endfor %}
    {% endif %}
  {% endfor %}
  {% for group in groups.values() %}
    {% set read = dbt_backfill._union_of_alike(group.parts, group.names) %}
    {% do selects.append('select ' ~ read.labels.bf_side ~ ' as bf_side, ' ~ read.labels.bf_part ~ ' as bf_part, '
        ~ group.columns | join(', ') ~ ' from ' ~ read.from) %}
  {% endfor %}
  {% set by_key = {} %}
  {% for row in (dbt_backfill._execute(selects | join(' union all ')).rows if selects else []) %}
    {% do by_key.setdefault((row['bf_part'], row['bf_key']), {}).update({row['bf_side']: row}) %}
  {% endfor %}
  {% set samples = [] %}
  {% for pair_keys in keys %}
    {% set position = loop.index0 | string %}
    {% set sample = [] %}
    {% for key in pair_keys %}
      {% set pair = by_key.get((position, key), {}) %}
      {% set changed, values = [], [] %}
      {% if pair.target and pair.stage %}
        {% for name in names %}
          {% if pair.target['bf_canonical_' ~ loop.index] != pair.stage['bf_canonical_' ~ loop.index] %}
            {% set old, new = pair.target['bf_value_' ~ loop.index], pair.stage['bf_value_' ~ loop.index] %}
            {% set old, new = dbt_backfill._float_shown(old, new) if name in pair_sides[position | int].target.floats else (old, new) %}
            {% do changed.append(name) %}{% do values.extend([old, new]) %}
          {% endif %}
        {% endfor %}
      {% endif %}
      {% set kept = dbt_backfill._sample_values(values) %}
      {% set columns = {} %}
      {% for name in changed %}
        {% do columns.update({name: {'old': kept[2 * loop.index0], 'new': kept[2 * loop.index0 + 1]}}) %}
      {% endfor %}
      {% do sample.append({'key': key, 'columns': columns}) %}
    {% endfor %}
    {% do samples.append(sample) %}
  {% endfor %}
  {{ return(samples) }}
{% endmacro %}

{# Sampled values as the packet keeps them: each at most 200 characters, then "…" (one 2 MB text made a 4 MB
   packet); a NULL stays none. One call for a sampled row's values, not two a changed column (issue 57). #}
{% macro _sample_values(values) %}
  {% set kept = [] %}
  {% for value in values %}
    {% set text = value | string %}
    {% do kept.append(none if value is none else text[:200] ~ ('…' if text | length > 200 else '')) %}
  {% endfor %}
  {{ return(kept) }}
{% endmacro %}
