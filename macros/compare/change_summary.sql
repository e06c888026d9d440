{#
  What replacing a partition of `target_relation` with `stage_relation` changes, by business key:
  {added, removed, changed, sample: [{key, columns: {column: {old, new}}}], added_keys, removed_keys, columns,
  excluded, compared}.

  Computed in the database, in one statement: each side is read once as lean rows (canonical key, each column's
  canonical text: the text the fingerprint digests), the two are joined by key, and a key is changed when one of
  its canonical columns differs — compared exactly, not by a digest or a sum a crafted row could make collide, and
  without computing a SHA-256 per row (docs/DECISIONS.md, row 84). The counts come back by one aggregate over the
  differing rows only (with each column's count of the changed keys where it differs: `columns`) and the samples as
  the first `sample_size` keys of each kind (a top-N, no sort of the differences); only for the sampled changed
  keys are the columns read and compared, in a second, key-restricted statement.
  `excluded`: the exclude_columns (names), compared too but apart: a key whose material columns are equal and whose
  excluded ones differ is not `changed`; `excluded` counts the kept keys whose excluded columns differ (their values
  apply rewrites unchecked by the fingerprint), and the first key whose only change is there follows the changed
  ones in `sample` (one: a run-level column changes every row, and its samples would drown the corrections). `target_rows`: the target partition's row count, which gives `compared` (the keys on
  both sides, the base of the plan's run-level columns: _column_notes).
  Plain SQL over the dispatched leaf canonical_text.
  `typed_by`: the relation whose columns type the stage side (the stale scan's session table holds the model's rows
  cast to the target's types, and several partitions, so it is read typed by the target and filtered by partition).
#}
{% macro change_summary(target_relation, stage_relation, scope, partition_value, sample_size=5, typed_by=none,
                        excluded=[], target_rows=none) %}
  {% set names = [] %}{% for c in scope.material_columns %}{% do names.append(c.name) %}{% endfor %}
  {% set all_names = names + (excluded | list) %}
  {% set floats = [] %}{# the float columns, whose sampled values are shown rounded (_float_shown) #}
  {% set sides = {} %}
  {% for side, relation in [('target', target_relation), ('stage', stage_relation)] %}
    {% set fields = [] %}
    {% set typed = relation if side == 'target' or typed_by is none else typed_by %}
    {% for column in dbt_backfill._columns(typed, all_names, 'material column') %}
      {% do fields.append(dbt_backfill.canonical_text(column.name, column.data_type)) %}
      {% if side == 'target' and dbt_backfill._type_family(column.data_type) == 'float' %}{% do floats.append(column.name) %}{% endif %}
    {% endfor %}
    {% set key = dbt_backfill._key_expression(typed, scope) %}
    {% set where = dbt_backfill._partition_predicate(scope.partition_column, partition_value)
        if side == 'target' or typed_by is not none else none %}
    {% set lean = [] %}
    {% for field in fields %}{% do lean.append(field ~ ' as bf_c' ~ loop.index) %}{% endfor %}
    {% do sides.update({side: {
        'relation': relation, 'key': key, 'fields': fields, 'where': where,
        'lean': 'select ' ~ key ~ ' as bf_key, ' ~ lean | join(', ') ~ ' from ' ~ relation ~ (' where ' ~ where if where else '')}}) %}
  {% endfor %}
  {% set kinds = ['added', 'removed', 'changed', 'excluded'] %}
  {% set counts = {} %}
  {% set keys = {'added': [], 'removed': [], 'changed': [], 'excluded': []} %}
  {% for row in dbt_backfill._execute(dbt_backfill._change_query(sides, names | length, all_names | length, kinds, sample_size)).rows %}
    {% if row['bf_kind'] == 'count' %}
      {% for kind in kinds + ['excluded_any'] %}{% do counts.update({kind: row['bf_' ~ kind] | int}) %}{% endfor %}
      {% for name in all_names %}{% do counts.update({'c:' ~ name: row['bf_d' ~ loop.index] | int}) %}{% endfor %}
    {% else %}
      {% do keys[row['bf_kind']].append(row['bf_key']) %}
    {% endif %}
  {% endfor %}
  {% for kind in kinds %}{% do keys[kind].sort() %}{% endfor %}
  {% set columns = {} %}
  {% for name in all_names if counts.get('c:' ~ name, 0) > 0 %}{% do columns.update({name: counts['c:' ~ name]}) %}{% endfor %}
  {% set summary = {
      'added': counts.get('added', 0),
      'removed': counts.get('removed', 0),
      'changed': counts.get('changed', 0),
      'sample': dbt_backfill._changed_columns(sides, all_names, keys.changed + keys.excluded, floats),
      'added_keys': keys.added,
      'removed_keys': keys.removed,
  } %}
  {% if excluded or target_rows is not none %}
    {% do summary.update({'columns': columns, 'excluded': counts.get('excluded_any', 0)}) %}
  {% endif %}
  {% if target_rows is not none %}
    {% do summary.update({'compared': (target_rows | int) - summary.removed}) %}
  {% endif %}
  {{ return(summary) }}
{% endmacro %}

{# The statement of change_summary: the lean sides joined by key, the differing keys kept with one flag per column
   (bf_d<i>: the column differs; the first `material` columns decide `changed`, the rest are excluded ones), then
   one row of counts and the first `sample_size` keys of each kind. #}
{% macro _change_query(sides, material, width, kinds, sample_size) %}
  {% set string_type = dbt.type_string() %}
  {% set differs, material_differs, excluded_differs = [], [], [] %}
  {% for i in range(1, width + 1) %}
    {% do differs.append('t.bf_c' ~ i ~ ' <> s.bf_c' ~ i) %}
    {% do (material_differs if i <= material else excluded_differs).append('t.bf_c' ~ i ~ ' <> s.bf_c' ~ i) %}
  {% endfor %}
  {% set query %}
    with differences as (
      select
        coalesce(t.bf_key, s.bf_key) as bf_key,
        case when t.bf_key is null then 'added' when s.bf_key is null then 'removed'
             when {{ material_differs | join(' or ') or 'false' }} then 'changed' else 'excluded' end as bf_change,
        case when t.bf_key is not null and s.bf_key is not null and ({{ excluded_differs | join(' or ') or 'false' }})
             then 1 else 0 end as bf_excluded_any
        {%- for d in differs %},
        case when t.bf_key is not null and s.bf_key is not null and {{ d }} then 1 else 0 end as bf_d{{ loop.index }}
        {%- endfor %}
      from ({{ sides.target.lean }}) t
      full outer join ({{ sides.stage.lean }}) s on t.bf_key = s.bf_key
      where t.bf_key is null or s.bf_key is null or {{ differs | join(' or ') }}
    )
    select 'count' as bf_kind
      {%- for kind in kinds %},
      cast(coalesce(sum(case when bf_change = '{{ kind }}' then 1 else 0 end), 0) as {{ string_type }}) as bf_{{ kind }}
      {%- endfor %},
      cast(coalesce(sum(bf_excluded_any), 0) as {{ string_type }}) as bf_excluded_any
      {%- for d in differs %},
      cast(coalesce(sum(bf_d{{ loop.index }}), 0) as {{ string_type }}) as bf_d{{ loop.index }}
      {%- endfor %},
      cast(null as {{ string_type }}) as bf_key
    from differences
    {% for kind in kinds %}
    union all
    select * from (
      select '{{ kind }}' as bf_kind, {% for other in kinds %}cast(null as {{ string_type }}), {% endfor %}
             cast(null as {{ string_type }}), {% for d in differs %}cast(null as {{ string_type }}), {% endfor %}bf_key
      from differences where bf_change = '{{ kind }}' order by bf_key limit {{ 1 if kind == 'excluded' else sample_size | int }}
    ) bf_sample_{{ kind }}
    {% endfor %}
  {% endset %}
  {{ return(query) }}
{% endmacro %}

{# For each sampled changed key, the columns whose canonical text differs, with the old and new values: both sides
   read for those keys only. #}
{% macro _changed_columns(sides, names, changed_keys, floats=[]) %}
  {% if not changed_keys %}{{ return([]) }}{% endif %}
  {% set string_type = dbt.type_string() %}
  {% set literals = [] %}
  {% for key in changed_keys %}{% do literals.append(dbt_backfill._sql_literal(key)) %}{% endfor %}
  {% set selects = [] %}
  {% for side in ['target', 'stage'] %}
    {% set s = sides[side] %}
    {% set columns = [] %}
    {% for field in s.fields %}
      {% do columns.append(field ~ ' as bf_canonical_' ~ loop.index) %}
      {% do columns.append('cast(' ~ adapter.quote(names[loop.index0]) ~ ' as ' ~ string_type ~ ') as bf_value_' ~ loop.index) %}
    {% endfor %}
    {% do selects.append("select '" ~ side ~ "' as bf_side, " ~ s.key ~ ' as bf_key, ' ~ columns | join(', ') ~ ' from '
        ~ s.relation ~ ' where ' ~ (s.where ~ ' and ' if s.where else '') ~ s.key ~ ' in (' ~ literals | join(', ') ~ ')') %}
  {% endfor %}
  {% set by_key = {} %}
  {% for row in dbt_backfill._execute(selects | join(' union all ')).rows %}
    {% do by_key.setdefault(row['bf_key'], {}).update({row['bf_side']: row}) %}
  {% endfor %}
  {% set sample = [] %}
  {% for key in changed_keys %}
    {% set pair = by_key.get(key, {}) %}
    {% set columns = {} %}
    {% if pair.target and pair.stage %}
      {% for name in names %}
        {% if pair.target['bf_canonical_' ~ loop.index] != pair.stage['bf_canonical_' ~ loop.index] %}
          {% set old, new = pair.target['bf_value_' ~ loop.index], pair.stage['bf_value_' ~ loop.index] %}
          {% set old, new = dbt_backfill._float_shown(old, new) if name in floats else (old, new) %}
          {% do columns.update({name: {'old': dbt_backfill._sample_value(old), 'new': dbt_backfill._sample_value(new)}}) %}
        {% endif %}
      {% endfor %}
    {% endif %}
    {% do sample.append({'key': key, 'columns': columns}) %}
  {% endfor %}
  {{ return(sample) }}
{% endmacro %}

{# A sampled value as the packet keeps it: at most 200 characters, then "…" (one 2 MB text made a 4 MB packet). #}
{% macro _sample_value(value) %}
  {% if value is none %}{{ return(none) }}{% endif %}
  {% set text = value | string %}
  {{ return(text[:200] ~ ('…' if text | length > 200 else '')) }}
{% endmacro %}
