{# Every partition value must be a value of the partition column's type, and name exactly one: checked before
   anything is built, so a bad value is named. PostgreSQL and DuckDB reject a bad cast; Spark without ANSI mode
   returns null for it, refused the same way. The value cast to the column's type and back to text must be what was
   typed: a cast that truncates (varchar(10)), pads, trims or normalises ('2026-3-1', ' 5') would replace a partition
   other than the one the packet names. Runs in the pinned session (ISO dates). #}
{% macro _check_partition_values(scope, values) %}
  {% set column = scope.partition_column %}
  {% set casts = adapter.dispatch('_partition_value_casts', 'dbt_backfill')(column, values) %}
  {% for value in values %}
    {% set typed, round_trip = casts[loop.index0] %}
    {% if typed is none %}{% do dbt_backfill._fail(dbt_backfill._invalid_partition_value(column, value)) %}{% endif %}
    {% if round_trip != value %}
      {# two spellings of one value (2026-3-2, 2026-03-02) would name one partition twice: only the column's own is taken #}
      {% do dbt_backfill._fail('partition value ' ~ tojson(value) ~ ' becomes ' ~ tojson(round_trip) ~ ' as a '
          ~ column.data_type ~ ' (' ~ column.name ~ '): did you mean ' ~ round_trip ~ '? A partition is named exactly as '
          ~ 'the column holds it, so that no two spellings name one partition. Nothing was built and the target is unchanged.') %}
    {% endif %}
  {% endfor %}
  {% do dbt_backfill._commit() %}
{% endmacro %}

{# [typed, round trip] of each value: a statement a value, so that the value a failed cast names is the one
   reported (PostgreSQL before 16 has no cast that returns null instead of failing) #}
{% macro default___partition_value_casts(column, values) %}
  {% set casts = [] %}
  {% for value in values %}
    {% do dbt_backfill._step('checking partition value ' ~ value, dbt_backfill._invalid_partition_value(column, value)) %}
    {% set typed = 'cast(' ~ dbt_backfill._sql_literal(value) ~ ' as ' ~ column.data_type ~ ')' %}
    {% set cast = dbt_backfill._execute('select ' ~ typed ~ ' as typed, cast(' ~ typed ~ ' as ' ~ dbt.type_string()
                                        ~ ') as round_trip') %}
    {% do casts.append([cast.rows[0][0], cast.rows[0][1]]) %}
  {% endfor %}
  {{ return(casts) }}
{% endmacro %}

{# DuckDB and Spark: try_cast is null where the value is not of the type, so every value is cast in one statement
   (500 at a time) and the first null is named #}
{% macro duckdb___partition_value_casts(column, values) %}
  {{ return(dbt_backfill._try_casts(column, values)) }}
{% endmacro %}

{% macro spark___partition_value_casts(column, values) %}
  {{ return(dbt_backfill._try_casts(column, values)) }}
{% endmacro %}

{% macro _try_casts(column, values) %}
  {% if not values %}{{ return([]) }}{% endif %}
  {% do dbt_backfill._step(('checking partition value ' ~ values[0]) if values | length == 1
      else 'checking ' ~ values | length ~ ' partition values, ' ~ values[0] ~ ' to ' ~ values[-1],
      'the partition values could not be cast to ' ~ column.data_type ~ ' (' ~ column.name ~ '). Nothing was built and '
      ~ 'the target is unchanged.') %}
  {% set casts = [] %}
  {% for chunk in values | batch(500) %}
    {% set selects = [] %}
    {% for value in chunk %}
      {% set typed = 'try_cast(' ~ dbt_backfill._sql_literal(value) ~ ' as ' ~ column.data_type ~ ')' %}
      {% do selects.append('select ' ~ loop.index0 ~ ' as bf_position, ' ~ typed ~ ' as typed, cast(' ~ typed ~ ' as '
                           ~ dbt.type_string() ~ ') as round_trip') %}
    {% endfor %}
    {% for row in dbt_backfill._execute(selects | join(' union all ') ~ ' order by 1').rows %}
      {% do casts.append([row[1], row[2]]) %}
    {% endfor %}
  {% endfor %}
  {{ return(casts) }}
{% endmacro %}

{% macro _invalid_partition_value(column, value) %}
  {{ return('partition value ' ~ tojson(value) ~ ' is not a valid ' ~ column.data_type ~ ' for ' ~ column.name
            ~ '. Nothing was built and the target is unchanged.') }}
{% endmacro %}
