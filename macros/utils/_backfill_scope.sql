{#
  Resolve the scope the CLI passes (names) against the target relation (columns and their types):
  partition column, business key, additive and material columns. Raises naming what is missing.
#}
{% macro _backfill_scope(target_relation, partition_by, business_key, additive, material_columns) %}
  {% set partition_column = dbt_backfill._columns(target_relation, [partition_by], 'partition_by')[0] %}
  {# A partition is one value of a column. A timestamp names an instant, not a day, and a day of a timestamptz
     depends on the session's time zone: a predicate on one could reach into a neighbouring day. #}
  {% if dbt_backfill._type_family(partition_column.data_type) not in ('date', 'integer', 'text') %}
    {% do dbt_backfill._fail("partition_by " ~ partition_column.name ~ " is " ~ partition_column.data_type
        ~ ": a partition column must hold whole partition values (a date, an integer or a text). For time, "
        ~ "partition by a date column derived in the model (e.g. trip_date), so a day's boundary belongs to the table, "
        ~ "not to a session's time zone. Nothing was changed.") %}
  {% endif %}
  {% set key_columns = dbt_backfill._columns(target_relation, business_key, 'business_key') %}
  {% set additive_columns = dbt_backfill._columns(target_relation, additive, 'additive') %}
  {% for column in additive_columns %}
    {% if dbt_backfill._type_family(column.data_type) not in ('integer', 'decimal', 'float') %}
      {% do dbt_backfill._fail("additive column " ~ column.name ~ " is " ~ column.data_type
          ~ ", not a number: totals are sums. Nothing was changed.") %}
    {% endif %}
  {% endfor %}
  {% set material = dbt_backfill._columns(target_relation, material_columns, 'material column') %}
  {{ return({
      'partition_column': partition_column,
      'key_columns': key_columns,
      'additive_columns': additive_columns,
      'material_columns': material,
  }) }}
{% endmacro %}

{# Fingerprint `relation` (all of it, or one partition) with the scope's columns, taking each column's type from
   the relation itself: a stage built by CREATE TABLE AS may type a column differently from the target.
   `count_duplicate_keys` adds the grouping by key that the plan's check of a build needs. #}
{% macro _fingerprint_in_scope(relation, scope, partition_value=none, with_partition=false, count_duplicate_keys=false) %}
  {% set names = [] %}
  {% for column in scope.material_columns %}{% do names.append(column.name) %}{% endfor %}
  {% set key_names = [] %}
  {% for column in scope.key_columns %}{% do key_names.append(column.name) %}{% endfor %}
  {% set additive_names = [] %}
  {% for column in scope.additive_columns %}{% do additive_names.append(column.name) %}{% endfor %}
  {% set own_partition_column = dbt_backfill._columns(relation, [scope.partition_column.name], 'partition_by')[0] %}
  {{ return(dbt_backfill.fingerprint_relation(
      relation,
      dbt_backfill._columns(relation, names, 'material column'),
      dbt_backfill._columns(relation, key_names, 'business_key'),
      dbt_backfill._columns(relation, additive_names, 'additive'),
      dbt_backfill._partition_predicate(own_partition_column, partition_value) if with_partition else none,
      count_duplicate_keys)) }}
{% endmacro %}

{# The commitment (commitment_digest) of `relation`, or of one partition of it, over every column the relation has
   — the excluded ones too: they are left out of the fingerprint because two builds may differ in them, but the
   stage that was approved is one build, and what apply inserts must be that build, every column of it. The stage
   and the copy apply inserts from both hold exactly the target's columns (the plan checks the stage's). #}
{% macro _commitment_in_scope(relation, scope, row_count, partition_value=none, with_partition=false) %}
  {% set names = dbt_backfill._column_names(relation) %}
  {% set own_partition_column = dbt_backfill._columns(relation, [scope.partition_column.name], 'partition_by')[0] %}
  {{ return(dbt_backfill.commitment_digest(relation, dbt_backfill._columns(relation, names, 'material column'),
      dbt_backfill._partition_predicate(own_partition_column, partition_value) if with_partition else none, row_count)) }}
{% endmacro %}

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
