{#
  Which partitions of a downstream model a repair of its parents reaches, for `apply --cascade`, and whether any
  partition beyond that reach would change:
    partitions  every partition value its parents changed, and every partition within `before` partitions before
                and `after` partitions after one of them (days of a date, units of an integer) that its table holds
                or that a full build of it now holds (a window can create a partition), in order;
    beyond      every partition outside those whose rows in the table differ from a full build of the model now:
                the probe of the reach. A window nobody declared (a trailing metric, a day read a week back, a lead
                metric) shows here, whatever its width, so the cascade never reports success while a partition of
                the model differs from its build.
  The full build is one statement: the model's SQL (compiled with --full-refresh, run in the session as `dbt run`
  has it) and its table, each set minus the other, over the columns the fingerprint reads (all but
  exclude_columns); columns without an equality of their own (json, xml, maps, ...) compare as their text. A text
  partition column has no neighbours: its reach is the changed values alone (ordered: false), and `beyond` still
  probes every other value. Only reads. Emits one `reach` result: {partitions, beyond, ordered}.

  dbt run-operation dbt_backfill.partitions_in_reach --args '{model: trailing_fares, partition_by: trip_date,
      changed: [2026-03-01], before: 0, after: 27, model_sql: <compiled --full-refresh>, exclude_columns: []}'
#}
{% macro partitions_in_reach(model, partition_by, changed, before=0, after=0, model_sql=none, exclude_columns=none) %}
  {% do dbt_backfill.refuse_unsafe_search_path() %}
  {% set node = dbt_backfill._model_node(model) %}
  {% if exclude_columns is none %}  {# the model's own, read as a plan reads its meta.backfill #}
    {% set meta = dbt_backfill._meta_backfill(node) %}
    {% set exclude_columns = dbt_backfill._backfill_spec(model, meta).exclude_columns %}
  {% endif %}
  {% set target_relation = dbt_backfill._target_relation({'database': node.database, 'schema': node.schema,
                                                          'identifier': node.alias or node.name}) %}
  {% set partition_column = dbt_backfill._columns(target_relation, [partition_by], 'partition_by')[0] %}
  {% set family = dbt_backfill._type_family(partition_column.data_type) %}
  {% set ordered = family in ('date', 'integer') %}
  {% set column = adapter.quote(partition_column.name) %}
  {% set values = [] %}
  {% for value in changed %}{% do values.append(value | string) %}{% endfor %}
  {% if (before or after) and not ordered %}
    {% do dbt_backfill._fail('meta.backfill.depends_on_window of ' ~ model ~ ' counts partitions before and after a '
        ~ 'changed one, but its partition column ' ~ partition_column.name ~ ' is ' ~ partition_column.data_type
        ~ ', which has no order of partitions: drop the window (its reach is then the changed values) or partition '
        ~ 'it by a date or an integer. Nothing was changed.') %}
  {% endif %}

  {# each changed value as a number (a date's day ordinal), widened; overlapping or touching windows merged #}
  {% set merged = dbt_backfill._merged_reach(values, family, before, after) if ordered else [] %}
  {% set windows = [] %}
  {% for stretch in merged %}
    {% do windows.append(column ~ ' between ' ~ dbt_backfill._partition_literal(stretch[0], family, partition_column.data_type)
        ~ ' and ' ~ dbt_backfill._partition_literal(stretch[1], family, partition_column.data_type)) %}
  {% endfor %}
  {% set changed_literals = [] %}
  {% for value in values %}
    {% do changed_literals.append('cast(' ~ dbt_backfill._sql_literal(value) ~ ' as ' ~ partition_column.data_type ~ ')') %}
  {% endfor %}
  {% set in_reach_sql = '(' ~ ((windows + [column ~ ' in (' ~ changed_literals | join(', ') ~ ')']) | join(' or ')) ~ ')' %}

  {% set query = dbt_backfill._reach_query(model, target_relation, partition_column, in_reach_sql, model_sql, exclude_columns) %}
  {# run in the session as `dbt run` has it (the model's SQL may depend on its time zone); the partition values come
     back as the driver's typed values, so no session setting changes their text #}
  {% set found = dbt_backfill._execute(query) %}
  {% do dbt_backfill._commit() %}

  {% set reach = {} %}
  {% for value in values %}{% do reach.update({value: dbt_backfill._ordering_key(value, family)}) %}{% endfor %}
  {% set beyond = {} %}
  {% for row in found.rows %}
    {% set value = none if row['partition_value'] is none else dbt_backfill._partition_text(row['partition_value'], family) %}
    {% if row['kind'] == 'held' %}
      {% do reach.update({value: dbt_backfill._ordering_key(value, family)}) %}
    {% elif value is not none and value not in reach and ordered and dbt_backfill._within(value, family, merged) %}
      {# a partition the table does not hold yet, inside a window: the repair creates it #}
      {% do reach.update({value: dbt_backfill._ordering_key(value, family)}) %}
    {% else %}
      {% do beyond.update({value if value is not none else 'NULL': dbt_backfill._ordering_key(value, family)}) %}
    {% endif %}
  {% endfor %}
  {% for value in reach.keys() | list %}{% do beyond.pop(value, none) %}{% endfor %}
  {% do dbt_backfill._emit_result('reach', {'partitions': dbt_backfill._by_ordinal(reach),
                                            'beyond': dbt_backfill._by_ordinal(beyond), 'ordered': ordered}) %}
{% endmacro %}

{# The changed values' ordinals, each widened by `before` and `after`, as merged [low, high] windows in order
   (overlapping or touching ones merged). #}
{% macro _merged_reach(values, family, before, after) %}
  {% set stretches = [] %}
  {% for value in values %}
    {% set ordinal = dbt_backfill._partition_ordinal(value, family) %}
    {% do stretches.append([ordinal - before | int, ordinal + after | int]) %}
  {% endfor %}
  {% set merged = [] %}
  {% for stretch in stretches | sort %}
    {% if merged and stretch[0] <= merged[-1][1] + 1 %}
      {% set last = merged.pop() %}
      {% do merged.append([last[0], [last[1], stretch[1]] | max]) %}
    {% else %}
      {% do merged.append(stretch) %}
    {% endif %}
  {% endfor %}
  {{ return(merged) }}
{% endmacro %}

{# The statement that finds the partitions in reach: without model_sql, the ones the table holds ('held'); with it,
   those and every partition whose rows in the table differ from a full build of the model ('differing'). #}
{% macro _reach_query(model, target_relation, partition_column, in_reach_sql, model_sql, exclude_columns) %}
  {% set column = adapter.quote(partition_column.name) %}
  {% if model_sql is none %}
    {% set query %}
      select {{ column }} as partition_value, 'held' as kind from {{ target_relation }} where {{ in_reach_sql }}
      group by {{ column }}
    {% endset %}
  {% else %}
    {% set compared = [] %}
    {% set excluded = exclude_columns | map('lower') | list %}
    {% for c in dbt_backfill._relation_columns(target_relation) if (c.name | lower) not in excluded or c.name == partition_column.name %}
      {% set name = adapter.quote(c.name) %}
      {% do compared.append(('cast(' ~ name ~ ' as ' ~ dbt.type_string() ~ ') as ' ~ name)
          if dbt_backfill._type_family(c.data_type) in ('other', 'nested') else name) %}
    {% endfor %}
    {% set query %}
      with built as (select {{ compared | join(', ') }} from ({{ dbt_backfill._strip_statement_end(model_sql) }}) as model_rows),
           held as (select {{ compared | join(', ') }} from {{ target_relation }}),
           differing as ((select * from built except all select * from held) union all (select * from held except all select * from built))
      select {{ column }} as partition_value, 'held' as kind from held where {{ in_reach_sql }} group by {{ column }}
      union all
      select {{ column }} as partition_value, 'differing' as kind from differing group by {{ column }}
    {% endset %}
    {% do dbt_backfill._step('comparing ' ~ model ~ ' with a full build of it',
        'comparing ' ~ model ~ ' with a full build of it (its SQL compiled with --full-refresh) failed (see the error '
        ~ 'below); it only reads, and nothing of ' ~ model ~ ' was changed.') %}
  {% endif %}
  {{ return(query) }}
{% endmacro %}

{# Whether a partition value lies inside one of the merged windows [low, high] of ordinals. #}
{% macro _within(value, family, windows) %}
  {% set ordinal = dbt_backfill._partition_ordinal(value, family) %}
  {% for window in windows if window[0] <= ordinal <= window[1] %}{{ return(true) }}{% endfor %}
  {{ return(false) }}
{% endmacro %}

{# The partition an ordinal names, typed by the database: cast('<value>' as <the column's type>). #}
{% macro _partition_literal(ordinal, family, data_type) %}
  {% set value = modules.datetime.date.fromordinal(ordinal).isoformat() if family == 'date' else ordinal | string %}
  {{ return('cast(' ~ dbt_backfill._sql_literal(value) ~ ' as ' ~ data_type ~ ')') }}
{% endmacro %}
