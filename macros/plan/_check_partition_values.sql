{# Every partition value must be a value of the partition column's type, and name exactly one: checked one by one
   before anything is built, so a bad value is named. PostgreSQL and DuckDB reject a bad cast; Spark without ANSI
   mode returns null for it, refused the same way. The value cast to the column's type and back to text must be
   what was typed: a cast that truncates (varchar(10)), pads, trims or normalises ('2026-3-1', ' 5') would replace
   a partition other than the one the packet names. Runs in the pinned session (ISO dates). #}
{% macro _check_partition_values(scope, values) %}
  {% for value in values %}
    {% set invalid = 'partition value ' ~ tojson(value) ~ ' is not a valid ' ~ scope.partition_column.data_type ~ ' for '
        ~ scope.partition_column.name ~ '. Nothing was built and the target is unchanged.' %}
    {% do dbt_backfill._step('checking partition value ' ~ value, invalid) %}
    {% set typed = 'cast(' ~ dbt_backfill._sql_literal(value) ~ ' as ' ~ scope.partition_column.data_type ~ ')' %}
    {% set cast = dbt_backfill._execute('select ' ~ typed ~ ' as typed, cast(' ~ typed ~ ' as ' ~ dbt.type_string()
                                        ~ ') as round_trip') %}
    {% if cast.rows[0][0] is none %}{% do dbt_backfill._fail(invalid) %}{% endif %}
    {% if cast.rows[0][1] != value %}
      {# two spellings of one value (2026-3-2, 2026-03-02) would name one partition twice: only the column's own is taken #}
      {% do dbt_backfill._fail('partition value ' ~ tojson(value) ~ ' becomes ' ~ tojson(cast.rows[0][1]) ~ ' as a '
          ~ scope.partition_column.data_type ~ ' (' ~ scope.partition_column.name ~ '): did you mean ' ~ cast.rows[0][1]
          ~ '? A partition is named exactly as the column holds it, so that no two spellings name one partition. '
          ~ 'Nothing was built and the target is unchanged.') %}
    {% endif %}
  {% endfor %}
  {% do dbt_backfill._commit() %}
{% endmacro %}
