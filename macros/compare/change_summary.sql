{#
  What replacing a partition of `target_relation` with `stage_relation` changes, by business key:
  {added, removed, changed, sample: [{key, columns: {column: {old, new}}}], added_keys, removed_keys}.

  Computed in the database, in one statement: each side is read once as lean rows (canonical key, canonical row:
  the text the fingerprint digests), the two are joined by key, and a key is changed when its canonical rows
  differ — compared exactly, not by a digest or a sum a crafted row could make collide, and without computing a
  SHA-256 per row (docs/DECISIONS.md, row 84). The counts come back by one aggregate and the samples as the first
  `sample_size` keys of each kind (a top-N, no sort of the differences); only for the sampled changed keys are the
  columns read and compared, in a second, key-restricted statement.
  Plain SQL over the dispatched leaf canonical_text.
  `typed_by`: the relation whose columns type the stage side (the stale scan's session table holds the model's rows
  cast to the target's types, and several partitions, so it is read typed by the target and filtered by partition).
#}
{% macro change_summary(target_relation, stage_relation, scope, partition_value, sample_size=5, typed_by=none) %}
  {% set string_type = dbt.type_string() %}
  {% set names = [] %}{% for c in scope.material_columns %}{% do names.append(c.name) %}{% endfor %}
  {% set sides = {} %}
  {% for side, relation in [('target', target_relation), ('stage', stage_relation)] %}
    {% set fields = [] %}
    {% set typed = relation if side == 'target' or typed_by is none else typed_by %}
    {% for column in dbt_backfill._columns(typed, names, 'material column') %}
      {% do fields.append(dbt_backfill.canonical_text(column.name, column.data_type)) %}
    {% endfor %}
    {% set key = dbt_backfill._key_expression(typed, scope) %}
    {% set where = dbt_backfill._partition_predicate(scope.partition_column, partition_value)
        if side == 'target' or typed_by is not none else none %}
    {% do sides.update({side: {
        'relation': relation, 'key': key, 'fields': fields, 'where': where,
        'lean': 'select ' ~ key ~ ' as bf_key, ' ~ dbt_backfill._canonical_row(fields) ~ ' as bf_row from ' ~ relation
                ~ (' where ' ~ where if where else '')}}) %}
  {% endfor %}

  {% set kinds = ['added', 'removed', 'changed'] %}
  {% set query %}
    with differences as (
      select
        coalesce(t.bf_key, s.bf_key) as bf_key,
        case when t.bf_key is null then 'added' when s.bf_key is null then 'removed' else 'changed' end as bf_change
      from ({{ sides.target.lean }}) t
      full outer join ({{ sides.stage.lean }}) s on t.bf_key = s.bf_key
      where t.bf_key is null or s.bf_key is null or t.bf_row <> s.bf_row
    )
    select 'count' as bf_kind
      {%- for kind in kinds %},
      cast(coalesce(sum(case when bf_change = '{{ kind }}' then 1 else 0 end), 0) as {{ string_type }}) as bf_{{ kind }}
      {%- endfor %},
      cast(null as {{ string_type }}) as bf_key
    from differences
    {% for kind in kinds %}
    union all
    select * from (
      select '{{ kind }}' as bf_kind, {% for other in kinds %}cast(null as {{ string_type }}), {% endfor %}bf_key
      from differences where bf_change = '{{ kind }}' order by bf_key limit {{ sample_size | int }}
    ) bf_sample_{{ kind }}
    {% endfor %}
  {% endset %}
  {% set counts = {} %}
  {% set keys = {'added': [], 'removed': [], 'changed': []} %}
  {% for row in dbt_backfill._execute(query).rows %}
    {% if row['bf_kind'] == 'count' %}
      {% for kind in kinds %}{% do counts.update({kind: row['bf_' ~ kind] | int}) %}{% endfor %}
    {% else %}
      {% do keys[row['bf_kind']].append(row['bf_key']) %}
    {% endif %}
  {% endfor %}
  {% for kind in kinds %}{% do keys[kind].sort() %}{% endfor %}
  {{ return({
      'added': counts.get('added', 0),
      'removed': counts.get('removed', 0),
      'changed': counts.get('changed', 0),
      'sample': dbt_backfill._changed_columns(sides, names, keys.changed),
      'added_keys': keys.added,
      'removed_keys': keys.removed,
  }) }}
{% endmacro %}

{# For each sampled changed key, the columns whose canonical text differs, with the old and new values: both sides
   read for those keys only. #}
{% macro _changed_columns(sides, names, changed_keys) %}
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
          {% do columns.update({name: {'old': dbt_backfill._sample_value(pair.target['bf_value_' ~ loop.index]),
                                       'new': dbt_backfill._sample_value(pair.stage['bf_value_' ~ loop.index])}}) %}
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
