{#
  What replacing a partition of `target_relation` with `stage_relation` changes, by business key:
  {added, removed, changed, sample: [{key, columns: {column: {old, new}}}], added_keys, removed_keys,
  buckets: {target, stage, differing}}.

  Computed in the database, bucket summaries first: both sides are split into 4,096 buckets by the canonical key
  and each bucket is summarised as the fingerprint summarises a partition (rows and checksum sum); only rows of buckets whose digests differ are joined by key and
  compared by row digest. A one-row fix touches one bucket of 4,096, so the key join and the sampling sort see
  1/4,096 of the partition. Only counts and the sampled rows come back to dbt.
  Plain SQL over the dispatched leaves canonical_text and sha256_hex.
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
    {% set select %}
      select
        {{ key }} as bf_key,
        {{ dbt_backfill._bucket_of(key) }} as bf_bucket,
        {{ dbt_backfill.sha256_hex(fields | join(" || '|' || ")) }} as bf_row_digest
        {% for field in fields %}, {{ field }} as bf_canonical_{{ loop.index }}{% endfor %}
        {% for name in names %}, cast({{ adapter.quote(name) }} as {{ string_type }}) as bf_value_{{ loop.index }}{% endfor %}
      from {{ relation }}
      {% if side == 'target' %}where {{ dbt_backfill._partition_predicate(scope.partition_column, partition_value) }}{% endif %}
    {% endset %}
    {% do sides.update({side: select}) %}
  {% endfor %}

  {% set query %}
    with target_rows as ({{ sides.target }}),
    stage_rows as ({{ sides.stage }}),
    target_buckets as (
      select bf_bucket, {{ dbt_backfill._rows_summary('bf_row_digest') }} as bf_digest from target_rows group by bf_bucket
    ),
    stage_buckets as (
      select bf_bucket, {{ dbt_backfill._rows_summary('bf_row_digest') }} as bf_digest from stage_rows group by bf_bucket
    ),
    differing_buckets as (
      select coalesce(t.bf_bucket, s.bf_bucket) as bf_bucket
      from target_buckets t full outer join stage_buckets s on t.bf_bucket = s.bf_bucket
      where t.bf_digest is null or s.bf_digest is null or t.bf_digest <> s.bf_digest
    ),
    differences as (
      select
        coalesce(t.bf_key, s.bf_key) as bf_key,
        case when t.bf_key is null then 'added' when s.bf_key is null then 'removed' else 'changed' end as bf_change
        {% for name in names %}
        , t.bf_value_{{ loop.index }} as old_{{ loop.index }}, s.bf_value_{{ loop.index }} as new_{{ loop.index }}
        , case when t.bf_canonical_{{ loop.index }} = s.bf_canonical_{{ loop.index }} then 'same' else 'changed' end as state_{{ loop.index }}
        {% endfor %}
      from (select * from target_rows where bf_bucket in (select bf_bucket from differing_buckets)) t
      full outer join (select * from stage_rows where bf_bucket in (select bf_bucket from differing_buckets)) s
        on t.bf_key = s.bf_key
      where t.bf_key is null or s.bf_key is null or t.bf_row_digest <> s.bf_row_digest
    ),
    ranked as (
      select differences.*,
        count(*) over (partition by bf_change) as bf_count,
        row_number() over (partition by bf_change order by bf_key) as bf_rank
      from differences
    ),
    bucket_counts as (
      select
        cast((select count(*) from target_buckets) as {{ string_type }}) as target_buckets,
        cast((select count(*) from stage_buckets) as {{ string_type }}) as stage_buckets,
        cast((select count(*) from differing_buckets) as {{ string_type }}) as differing_buckets
    )
    select bucket_counts.*, ranked.*, cast(ranked.bf_count as {{ string_type }}) as bf_count_text
    from bucket_counts left join ranked on ranked.bf_rank <= {{ sample_size | int }}
    order by ranked.bf_change, ranked.bf_key
  {% endset %}
  {% set rows = dbt_backfill._execute(query).rows %}

  {% set counts = {'added': 0, 'removed': 0, 'changed': 0} %}
  {% set sample = [] %}
  {% set keys = {'added': [], 'removed': []} %}
  {% for row in rows if row['bf_change'] is not none %}
    {% do counts.update({row['bf_change']: row['bf_count_text'] | int}) %}
    {% if row['bf_change'] == 'changed' %}
      {% set changed_columns = {} %}
      {% for name in names %}
        {% if row['state_' ~ loop.index] == 'changed' %}
          {% do changed_columns.update({name: {'old': row['old_' ~ loop.index], 'new': row['new_' ~ loop.index]}}) %}
        {% endif %}
      {% endfor %}
      {% do sample.append({'key': row['bf_key'], 'columns': changed_columns}) %}
    {% else %}
      {% do keys[row['bf_change']].append(row['bf_key']) %}
    {% endif %}
  {% endfor %}
  {{ return({
      'added': counts.added,
      'removed': counts.removed,
      'changed': counts.changed,
      'sample': sample,
      'added_keys': keys.added,
      'removed_keys': keys.removed,
      'buckets': {'target': rows[0]['target_buckets'] | int, 'stage': rows[0]['stage_buckets'] | int,
                  'differing': rows[0]['differing_buckets'] | int},
  }) }}
{% endmacro %}
