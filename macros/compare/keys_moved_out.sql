{#
  The mirror of keys_in_two_partitions: business keys that a named partition loses (the target holds them there,
  the partition's stage does not) and that a full build of the model places in a partition the plan does not name:
  a row that moved out of the scope. Replacing the named partition alone would leave that row in no partition.
  The model's SQL runs once over its whole output, joined to the lost keys, so the partition is the one a full
  build gives; the caller runs it in the session as `dbt run` has it (the model's logic decides the partition)
  and only when a named partition loses keys. Keys are compared as the columns are (both sides have the target's
  columns). `stages` are the partitions that lose keys ({value, relation}), `named_values` every partition of the
  plan. Returns up to `sample_size` {key, partition, moved_to} (a NULL partition value as 'a NULL partition').
  The matches are grouped by key before the sample is ordered and cut, so no plan can bet on a nested loop over
  the model's output that a limit would end early (keys_in_two_partitions).
#}
{% macro keys_moved_out(target_relation, model_sql, stages, scope, named_values, sample_size=5) %}
  {% set string_type = dbt.type_string() %}
  {% set columns = dbt_backfill._key_columns_sql(scope, 'bf_lost') %}
  {% set keys, same_key, key_texts = columns['keys'], columns.same_key, columns.texts %}
  {% set query %}
    with bf_lost as (
      {% for stage in stages %}
      select bf_left.*, cast({{ dbt_backfill._sql_literal(stage.value) }} as {{ string_type }}) as bf_partition
      from (
        select {{ keys | join(', ') }} from {{ target_relation }}
        where {{ dbt_backfill._partition_predicate(scope.partition_column, stage.value) }}
        except
        select {{ keys | join(', ') }} from {{ stage.relation }}
      ) as bf_left
      {% if not loop.last %}union all{% endif %}
      {% endfor %}
    )
    select {{ key_texts | join(', ') }}, bf_lost.bf_partition,
           min(bf_model.{{ adapter.quote(scope.partition_column.name) }}) as bf_moved_to
    from (
      {{ dbt_backfill._strip_statement_end(model_sql) }}
    ) as bf_model
    join bf_lost on {{ same_key | join(' and ') }}
    where {{ dbt_backfill._outside_partitions(scope, named_values, 'bf_model') }}
    group by {% for column in scope.key_columns %}bf_lost.{{ adapter.quote(column.name) }}, {% endfor %}bf_lost.bf_partition
    order by {% for column in scope.key_columns %}{{ loop.index }}, {% endfor %}{{ (scope.key_columns | length) + 1 }}
    limit {{ sample_size | int }}
  {% endset %}
  {% set found = [] %}
  {% for row in dbt_backfill._execute(query).rows %}
    {% set key = [] %}
    {% for column in scope.key_columns %}{% do key.append(row['bf_key_' ~ loop.index] | string) %}{% endfor %}
    {% do found.append({'key': key | join('|'), 'partition': row['bf_partition'],
        'moved_to': (row['bf_moved_to'] | string) if row['bf_moved_to'] is not none else 'a NULL partition'}) %}
  {% endfor %}
  {{ return(found) }}
{% endmacro %}
