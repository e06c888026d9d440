{# The statement `_keys_also_outside` runs (at most `sample_size` rows of bf_key_1.., bf_also_in, by key), for a
   caller that reads it with another check in one statement (_commitment_and_keys_outside). #}
{% macro _keys_also_outside_sql(rows_relation, target_relation, scope, values, keys, sample_size=5) %}
  {% set same_key = [] %}
  {% set key_texts = [] %}
  {% for column in scope.key_columns %}
    {% do same_key.append('bf_outside.' ~ adapter.quote(column.name) ~ ' = bf_rows.' ~ adapter.quote(column.name)) %}
    {% do key_texts.append('cast(bf_rows.' ~ adapter.quote(column.name) ~ ' as ' ~ dbt.type_string() ~ ') as bf_key_' ~ loop.index) %}
  {% endfor %}
  {% set also_in = 'min(cast(bf_outside.' ~ adapter.quote(scope.partition_column.name) ~ ' as ' ~ dbt.type_string() ~ '))' %}
  {% set outside = dbt_backfill._outside_partitions(scope, values, 'bf_outside') %}
  {% set group_by %}{% for column in scope.key_columns %}{{ loop.index }}{% if not loop.last %}, {% endif %}{% endfor %}{% endset %}
  {# probed through the target's key index where that is bounded and cheaper, else one hash join (_probe_or_join) #}
  {% set probed %}
    select distinct {{ key_texts | join(', ') }}, bf_outside.bf_also_in
    from {{ rows_relation }} as bf_rows cross join lateral (
      select count(*) as bf_found, {{ also_in }} as bf_also_in
      from {{ target_relation }} as bf_outside where {{ same_key | join(' and ') }} and {{ outside }}
    ) bf_outside
    where bf_outside.bf_found > 0
    order by 1
    limit {{ sample_size | int }}
  {% endset %}
  {% set joined %}
    select {{ key_texts | join(', ') }}, {{ also_in }} as bf_also_in
    from {{ rows_relation }} as bf_rows
    join {{ target_relation }} as bf_outside on {{ same_key | join(' and ') }}
    where {{ outside }}
    group by {{ group_by }}
    order by 1
    limit {{ sample_size | int }}
  {% endset %}
  {{ return(dbt_backfill._probe_or_join(probed, joined, target_relation, keys, scope.key_columns)) }}
{% endmacro %}
