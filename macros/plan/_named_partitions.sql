{#
  The partition values the plan builds, from the ones named: each checked by the partition column's own cast, and
  the values that neither the target nor the model's output holds found before any stage is built: one read of the
  target, and the model evaluated once only for the values the target lacks. A value only a range names (202513 in
  202512..202602, a day with no rows) is left out; a value named alone is refused: most often a typo, and building
  it would cost two stages per value before saying so. Returns [the values to build, the values left out].
#}
{% macro _named_partitions(target_relation, scope, model_sql, partitions, from_ranges) %}
  {% do dbt_backfill._check_partition_values(scope, partitions) %}
  {% set vacant = dbt_backfill._vacant_values(target_relation, scope, model_sql, partitions) %}
  {% if vacant %}
    {% set by_range = {} %}
    {% for value in from_ranges %}{% do by_range.update({value: true}) %}{% endfor %}
    {% set alone = vacant | reject('in', by_range) | list %}
    {% if alone %}
      {% do dbt_backfill._fail(dbt_backfill._vacant_refusal(alone)) %}
    {% endif %}
    {% set left_out = {} %}
    {% for value in vacant %}{% do left_out.update({value: true}) %}{% endfor %}
    {% set partitions = partitions | reject('in', left_out) | list %}
    {% if not partitions %}
      {% do dbt_backfill._fail('no value of the range(s) holds rows in the target or in the model\'s output ('
          ~ vacant | length ~ ' value(s), ' ~ vacant[0] ~ ' to ' ~ vacant[-1] ~ '): there is nothing to repair. Check the range. '
          ~ 'Nothing was built and the target is unchanged.') %}
    {% endif %}
  {% endif %}
  {{ return([partitions, vacant]) }}
{% endmacro %}

{# The values of `values` (each stepped over by a range) that neither the target nor the model's output holds: one
   query, the model's SQL filtered to those values, evaluated once. #}
{% macro _vacant_values(target_relation, scope, model_sql, values) %}
  {% if not values %}{{ return([]) }}{% endif %}
  {% do dbt_backfill._step('finding the values that hold no rows', 'reading which values the target or the model\'s '
      ~ 'output holds failed (see the error below). Nothing was built and the target is unchanged.') %}
  {% set missing = dbt_backfill._values_held(target_relation, scope, values, false) %}
  {% if missing %}
    {% set missing = dbt_backfill._values_held('(' ~ dbt_backfill._strip_statement_end(model_sql) ~ ') as bf_model', scope,
                                                missing, false) %}
  {% endif %}
  {% do dbt_backfill._commit() %}
  {{ return(missing) }}
{% endmacro %}

{# The values `relation` (a relation, or a parenthesised query with an alias) holds, or with held=false the ones it
   does not, in the order given: one statement, the values as literals of the column's own type. #}
{% macro _values_held(relation, scope, values, held=true) %}
  {% set column = adapter.quote(scope.partition_column.name) %}
  {% set literals = [] %}
  {% for value in values %}
    {% do literals.append('cast(' ~ dbt_backfill._sql_literal(value) ~ ' as ' ~ scope.partition_column.data_type ~ ')') %}
  {% endfor %}
  {% set found = {} %}
  {% for row in dbt_backfill._execute('select distinct cast(' ~ column ~ ' as ' ~ dbt.type_string() ~ ') as bf_value from '
                                      ~ relation ~ ' where ' ~ column ~ ' in (' ~ literals | join(', ') ~ ')').rows %}
    {% do found.update({row[0] | string: true}) %}
  {% endfor %}
  {{ return(values | select('in', found) | list if held else values | reject('in', found) | list) }}
{% endmacro %}
