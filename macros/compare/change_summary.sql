{#
  What replacing a partition of `target_relation` with `stage_relation` changes, by business key:
  {added, removed, changed, sample: [{key, columns: {column: {old, new}}}], added_keys, removed_keys,
  buckets: {target, stage, differing}}.

  Computed in the database, bucket summaries first. Each side is read once as lean rows (canonical key, bucket,
  row digest); both sides are split into 4,096 buckets by key and each bucket is summarised as the fingerprint
  summarises a partition (rows and checksum sum); only rows of buckets whose summaries differ are joined by key.
  The counts come back as three numbers and the samples as the first `sample_size` keys of each kind (a top-N,
  no sort of the differences); only for the sampled changed keys are the columns read and compared, in a second,
  key-restricted statement. A one-row fix joins one bucket of 4,096; a partition where every row changed costs
  one hash join, not a materialised copy of every column of both sides.
  Plain SQL over the dispatched leaves canonical_text, sha256_hex and _bucket_of.
#}
{% macro change_summary(target_relation, stage_relation, scope, partition_value, sample_size=5) %}
  {% set string_type = dbt.type_string() %}
  {% set names = [] %}{% for c in scope.material_columns %}{% do names.append(c.name) %}{% endfor %}
  {% set sides = {} %}
  {% for side, relation in [('target', target_relation), ('stage', stage_relation)] %}
    {% set fields = [] %}
    {% for column in dbt_backfill._columns(relation, names, 'material column') %}
      {% do fields.append(dbt_backfill.canonical_text(column.name, column.data_type)) %}
    {% endfor %}
    {% set key = dbt_backfill._key_expression(relation, scope) %}
    {% set where = dbt_backfill._partition_predicate(scope.partition_column, partition_value) if side == 'target' else none %}
    {% do sides.update({side: {
        'relation': relation, 'key': key, 'fields': fields, 'where': where,
        'lean': 'select ' ~ key ~ ' as bf_key, ' ~ dbt_backfill._bucket_of(key) ~ ' as bf_bucket, '
                ~ dbt_backfill._row_digest(fields) ~ ' as bf_row_digest from ' ~ relation
                ~ (' where ' ~ where if where else '')}}) %}
  {% endfor %}

  {% set kinds = ['added', 'removed', 'changed'] %}
  {% set query %}
    with target_rows as ({{ sides.target.lean }}),
    stage_rows as ({{ sides.stage.lean }}),
    target_buckets as (
      select bf_bucket, {{ dbt_backfill._rows_summary('bf_row_digest') }} as bf_summary from target_rows group by bf_bucket
    ),
    stage_buckets as (
      select bf_bucket, {{ dbt_backfill._rows_summary('bf_row_digest') }} as bf_summary from stage_rows group by bf_bucket
    ),
    differing_buckets as (
      select coalesce(t.bf_bucket, s.bf_bucket) as bf_bucket
      from target_buckets t full outer join stage_buckets s on t.bf_bucket = s.bf_bucket
      where t.bf_summary is null or s.bf_summary is null or t.bf_summary <> s.bf_summary
    ),
    differences as (
      select
        coalesce(t.bf_key, s.bf_key) as bf_key,
        case when t.bf_key is null then 'added' when s.bf_key is null then 'removed' else 'changed' end as bf_change
      from (select * from target_rows where bf_bucket in (select bf_bucket from differing_buckets)) t
      full outer join (select * from stage_rows where bf_bucket in (select bf_bucket from differing_buckets)) s
        on t.bf_key = s.bf_key
      where t.bf_key is null or s.bf_key is null or t.bf_row_digest <> s.bf_row_digest
    )
    select 'bucket_counts' as bf_kind,
      cast((select count(*) from target_buckets) as {{ string_type }}) as bf_first,
      cast((select count(*) from stage_buckets) as {{ string_type }}) as bf_second,
      cast((select count(*) from differing_buckets) as {{ string_type }}) as bf_third
    {% for kind in kinds %}
    union all
    select 'count', '{{ kind }}', cast(count(*) as {{ string_type }}), cast(null as {{ string_type }})
    from differences where bf_change = '{{ kind }}'
    {% endfor %}
    {% for kind in kinds %}
    union all
    select * from (
      select 'sample' as bf_kind, '{{ kind }}' as bf_first, bf_key as bf_second, cast(null as {{ string_type }}) as bf_third
      from differences where bf_change = '{{ kind }}' order by bf_key limit {{ sample_size | int }}
    ) bf_sample_{{ kind }}
    {% endfor %}
  {% endset %}
  {% set rows = dbt_backfill._execute(query).rows %}

  {% set counts = {} %}
  {% set keys = {'added': [], 'removed': [], 'changed': []} %}
  {% set buckets = {} %}
  {% for row in rows %}
    {% if row['bf_kind'] == 'bucket_counts' %}
      {% do buckets.update({'target': row['bf_first'] | int, 'stage': row['bf_second'] | int, 'differing': row['bf_third'] | int}) %}
    {% elif row['bf_kind'] == 'count' %}
      {% do counts.update({row['bf_first']: row['bf_second'] | int}) %}
    {% else %}
      {% do keys[row['bf_first']].append(row['bf_second']) %}
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
      'buckets': buckets,
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
