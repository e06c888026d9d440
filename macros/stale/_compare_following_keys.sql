{#
  The candidates compared with the model (_compare_with_model), then the business keys of the rows it built followed
  to the target's other partitions: a partition outside the candidates that holds a key the build places in a
  candidate (keys_in_two_partitions, the check plan runs) is compared too, with why, so a key a changed row moved
  to another day is found where a full build drops it. Such partitions are added to `candidates` (and a window to
  `windowing` where it has none), and the build is made once more with them: every compared partition read over
  the union of their windows, the day the key moved to included. One statement more a scan; two builds only where
  a key moved. Keys followed once: a key of a followed partition is not followed again. Returns as
  _compare_with_model does ({by_value: {}, rows: none} with no candidates).
#}
{% macro _compare_following_keys(relation, scope, model_sql, windowing, candidates) %}
  {% if not candidates %}{{ return({'by_value': {}, 'rows': none}) }}{% endif %}
  {% set compared = dbt_backfill._compare_with_model(relation, scope, model_sql, windowing, candidates.keys() | list) %}
  {% set followed = dbt_backfill._partitions_holding_built_keys(relation, scope, compared.rows, candidates.keys() | list) %}
  {% if not followed %}{{ return(compared) }}{% endif %}
  {% do dbt_backfill._drop_model_rows(compared.rows) %}
  {% for value, reason in followed.items() %}
    {% do candidates.update({value: [reason]}) %}
    {% do dbt_backfill._window_of(windowing, value) %}
  {% endfor %}
  {% set family = dbt_backfill._type_family(scope.partition_column.data_type) %}
  {{ return(dbt_backfill._compare_with_model(relation, scope, model_sql, windowing,
                                             dbt_backfill._in_order(candidates.keys() | list, family))) }}
{% endmacro %}

{#
  The target's partitions outside `values` that hold a business key the session table `rows` (the model's build of
  `values`) holds: {value: why, in words}. One statement: one equi-join of the built keys to the target's
  other partitions, grouped by the partition holding them, keys counted distinct among the matches only (no
  order-by-limit over the join, so no plan bets on a nested loop; a hash join on an unindexed target without
  statistics, which ends at once when either side is empty). Keys compared as the columns are (the session
  table is typed by the target). NULL partitions are left out (no plan can name one). A key that holds the
  partition column cannot be in two partitions: nothing to follow.
#}
{% macro _partitions_holding_built_keys(relation, scope, rows, values) %}
  {% set string_type = dbt.type_string() %}
  {% set part = adapter.quote(scope.partition_column.name) %}
  {% if scope.partition_column.name | lower in scope.key_columns | map(attribute='name') | map('lower') | list %}
    {{ return({}) }}
  {% endif %}
  {% set keys, same, shown = [], [], [] %}
  {% for column in scope.key_columns %}
    {% do keys.append(adapter.quote(column.name)) %}
    {% do same.append('o.' ~ adapter.quote(column.name) ~ ' = m.' ~ adapter.quote(column.name)) %}
    {% do shown.append('cast(o.' ~ adapter.quote(column.name) ~ ' as ' ~ string_type ~ ')') %}
  {% endfor %}
  {% set key_text = shown | join(" || '|' || ") %}
  {% set query %}
    select cast(bf_held_in as {{ string_type }}) as bf_held_in, count(distinct bf_key) as bf_keys, min(bf_key) as bf_key,
           min(cast(bf_part as {{ string_type }})) as bf_moved_to, count(distinct bf_part) as bf_days
    from (
      {# each match once: a plain hash join of the built rows as they are (a DISTINCT over the whole build first ran
         whatever the other side held: 74 s on a first scan of 10M rows with nothing outside `values`, bench P9),
         grouped before any distinct count so the engine may aggregate in parallel #}
      select o.{{ part }} as bf_held_in, {{ key_text }} as bf_key, m.bf_part
      {# the target's partitions outside `values`, filtered before the join (the partition predicate names the
         column unqualified, which the built side also holds where it is a key column) #}
      from (select * from {{ relation }}
            where {{ part }} is not null and not ({{ dbt_backfill._partition_in(scope.partition_column, values) }})) o
      join (select {{ keys | join(', ') }}, {{ part }} as bf_part from {{ rows }}) m on {{ same | join(' and ') }}
      group by o.{{ part }}, {{ key_text }}, m.bf_part
    ) bf_matches
    group by bf_held_in
  {% endset %}
  {% set family = dbt_backfill._type_family(scope.partition_column.data_type) %}
  {% set found = {} %}
  {% for row in dbt_backfill._execute(query).rows %}
    {% set count, days = row['bf_keys'] | int, row['bf_days'] | int %}
    {% do found.update({dbt_backfill._partition_text(row['bf_held_in'], family): 'holds key(s) ' ~ row['bf_key']
        ~ (' and ' ~ (count - 1) ~ ' more' if count > 1 else '') ~ ' that a changed row moved to ' ~ row['bf_moved_to']
        ~ (' (and ' ~ (days - 1) ~ ' other partition(s))' if days > 1 else '')}) %}
  {% endfor %}
  {{ return(found) }}
{% endmacro %}
