{#
  What replacing a partition of `target_relation` with `stage_relation` changes, by business key:
  {added, removed, changed, sample: [{key, columns: {column: {old, new}}}]}. Computed in the database: rows
  are matched on their canonical key and compared by row digest; only the sampled rows come back.
  Plain SQL over the dispatched leaves canonical_text and sha256_hex.
#}
{% macro change_summary(target_relation, stage_relation, scope, partition_value, sample_size=5) %}
  {% set string_type = dbt.type_string() %}
  {% set target_where = dbt_backfill._partition_predicate(scope.partition_column, partition_value) %}

  {% set sides = {} %}
  {% for side, relation in [('target', target_relation), ('stage', stage_relation)] %}
    {% set names = [] %}{% for c in scope.material_columns %}{% do names.append(c.name) %}{% endfor %}
    {% set fields = [] %}
    {% for column in dbt_backfill._columns(relation, names, 'material column') %}
      {% do fields.append(dbt_backfill.canonical_text(column.name, column.data_type)) %}
    {% endfor %}
    {% set select %}
      select
        {{ dbt_backfill._key_expression(relation, scope) }} as bf_key,
        {{ dbt_backfill.sha256_hex(fields | join(" || '|' || ")) }} as bf_row_digest
        {% for field in fields %}, {{ field }} as bf_canonical_{{ loop.index }}{% endfor %}
        {% for name in names %}, cast({{ adapter.quote(name) }} as {{ string_type }}) as bf_value_{{ loop.index }}{% endfor %}
      from {{ relation }}
      {% if side == 'target' %}where {{ target_where }}{% endif %}
    {% endset %}
    {% do sides.update({side: select}) %}
  {% endfor %}

  {% set counts %}
    with target_rows as ({{ sides.target }}), stage_rows as ({{ sides.stage }})
    select
      cast(sum(case when t.bf_key is null then 1 else 0 end) as {{ string_type }}) as added,
      cast(sum(case when s.bf_key is null then 1 else 0 end) as {{ string_type }}) as removed,
      cast(sum(case when t.bf_key is not null and s.bf_key is not null and t.bf_row_digest <> s.bf_row_digest then 1 else 0 end) as {{ string_type }}) as changed
    from target_rows t full outer join stage_rows s on t.bf_key = s.bf_key
  {% endset %}
  {% set count_row = dbt_backfill._execute(counts).rows[0] %}

  {% set sample_query %}
    with target_rows as ({{ sides.target }}), stage_rows as ({{ sides.stage }})
    select t.bf_key as bf_key
      {% for column in scope.material_columns %}
      , t.bf_value_{{ loop.index }} as old_{{ loop.index }}, s.bf_value_{{ loop.index }} as new_{{ loop.index }}
      , case when t.bf_canonical_{{ loop.index }} = s.bf_canonical_{{ loop.index }} then 'same' else 'changed' end as state_{{ loop.index }}
      {% endfor %}
    from target_rows t join stage_rows s on t.bf_key = s.bf_key
    where t.bf_row_digest <> s.bf_row_digest
    order by t.bf_key
    limit {{ sample_size | int }}
  {% endset %}
  {% set sample = [] %}
  {% for row in dbt_backfill._execute(sample_query).rows %}
    {% set changed_columns = {} %}
    {% for column in scope.material_columns %}
      {% if row['state_' ~ loop.index] == 'changed' %}
        {% do changed_columns.update({column.name: {'old': row['old_' ~ loop.index], 'new': row['new_' ~ loop.index]}}) %}
      {% endif %}
    {% endfor %}
    {% do sample.append({'key': row['bf_key'], 'columns': changed_columns}) %}
  {% endfor %}

  {{ return({
      'added': (count_row['added'] or 0) | int,
      'removed': (count_row['removed'] or 0) | int,
      'changed': (count_row['changed'] or 0) | int,
      'sample': sample,
  }) }}
{% endmacro %}
