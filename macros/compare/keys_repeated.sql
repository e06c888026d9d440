{#
  Business keys that a full build of the model places in more than one partition: a key that identifies a row only
  within a partition (a campaign that has a row every day), where the plan's move checks (keys_in_two_partitions,
  keys_moved_out) need what business_key promises, one row per key in the whole table. It tells such a key from a
  row that moved: a moved row's key is in one partition of a full build. The model's SQL runs once over its whole
  output, joined to the keys of the named partitions' stages (each a full build's rows of its partition); the plan
  calls it in the session as `dbt run` has it, and only when the move checks found something. Keys are compared as
  the columns are (both sides have the target's columns). `stages` are {value, relation} of every named partition.
  Returns up to `sample_size` {key, partitions (how many), first, last} (the key as its columns' text joined by '|').
#}
{% macro keys_repeated(model_sql, stages, scope, sample_size=5) %}
  {% set string_type = dbt.type_string() %}
  {% set partition = 'bf_model.' ~ adapter.quote(scope.partition_column.name) %}
  {% set columns = dbt_backfill._key_columns_sql(scope, 'bf_keys') %}
  {% set keys, same_key, key_texts, grouped = columns['keys'], columns.same_key, columns.texts, columns.qualified %}
  {% set query %}
    with bf_keys as (
      {% for stage in stages %}
      select {{ keys | join(', ') }} from {{ stage.relation }}
      {% if not loop.last %}union{% endif %}
      {% endfor %}
    )
    select {{ key_texts | join(', ') }}, count(distinct {{ partition }}) as bf_partitions,
           cast(min({{ partition }}) as {{ string_type }}) as bf_first, cast(max({{ partition }}) as {{ string_type }}) as bf_last
    from (
      {{ dbt_backfill._strip_statement_end(model_sql) }}
    ) as bf_model
    join bf_keys on {{ same_key | join(' and ') }}
    group by {{ grouped | join(', ') }}
    having count(distinct {{ partition }}) > 1
    order by {% for column in scope.key_columns %}{{ loop.index }}{% if not loop.last %}, {% endif %}{% endfor %}
    limit {{ sample_size | int }}
  {% endset %}
  {% set found = [] %}
  {% for row in dbt_backfill._execute(query).rows %}
    {% set key = [] %}
    {% for column in scope.key_columns %}{% do key.append(row['bf_key_' ~ loop.index] | string) %}{% endfor %}
    {% do found.append({'key': key | join('|'), 'partitions': row['bf_partitions'] | int,
                        'first': row['bf_first'] | string, 'last': row['bf_last'] | string}) %}
  {% endfor %}
  {{ return(found) }}
{% endmacro %}
