{#
  Which partitions of a downstream model a repair of its parents reaches, for `apply --cascade`:
    partitions  every partition value its parents changed, and every partition the downstream table holds within
                `before` partitions before and `after` partitions after one of them (days of a date, units of an
                integer), in order;
    probes      the first partition the table holds after each stretch of those (and, where the reach looks
                forward, `before` > 0, the last one before it): outside the reach, so a build of it must equal
                the table, or the reach is wider than declared.
  A text column has no neighbours: its reach is the changed values alone, with no probe (ordered: false).
  Only reads the model's table. Emits one `reach` result: {partitions, probes, planned (both, in order), ordered}.

  dbt run-operation dbt_backfill.partitions_in_reach --args '{model: trailing_fares, partition_by: trip_date,
      changed: [2026-03-01], before: 0, after: 27}'
#}
{% macro partitions_in_reach(model, partition_by, changed, before=0, after=0) %}
  {% do dbt_backfill.pin_session() %}
  {% set node = dbt_backfill._model_node(model) %}
  {% set target_relation = dbt_backfill._target_relation({'database': node.database, 'schema': node.schema,
                                                          'identifier': node.alias or node.name}) %}
  {% set partition_column = dbt_backfill._columns(target_relation, [partition_by], 'partition_by')[0] %}
  {% set family = dbt_backfill._type_family(partition_column.data_type) %}
  {% set values = [] %}
  {% for value in changed %}{% do values.append(value | string) %}{% endfor %}
  {% if family not in ('date', 'integer') %}
    {% set unordered = values | unique | list %}
    {% do dbt_backfill._emit_result('reach', {'partitions': unordered, 'probes': [], 'planned': unordered, 'ordered': false}) %}
    {{ return(none) }}
  {% endif %}

  {# each changed value as a number (a date's day ordinal), widened; overlapping or touching windows merged #}
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

  {% set column = adapter.quote(partition_column.name) %}
  {% set as_text = dbt.type_string() %}
  {% set inside = [] %}
  {% set probes = [] %}
  {% for stretch in merged %}
    {% set low = dbt_backfill._partition_literal(stretch[0], family, partition_column.data_type) %}
    {% set high = dbt_backfill._partition_literal(stretch[1], family, partition_column.data_type) %}
    {% do inside.append(column ~ ' between ' ~ low ~ ' and ' ~ high) %}
    {% do probes.append("select cast(min(" ~ column ~ ") as " ~ as_text ~ ") as partition_value, 'probe' as kind from "
        ~ target_relation ~ " where " ~ column ~ " > " ~ high) %}
    {% if before | int > 0 %}
      {% do probes.append("select cast(max(" ~ column ~ ") as " ~ as_text ~ ") as partition_value, 'probe' as kind from "
          ~ target_relation ~ " where " ~ column ~ " < " ~ low) %}
    {% endif %}
  {% endfor %}
  {% set query %}
    select cast({{ column }} as {{ as_text }}) as partition_value, 'in_reach' as kind from {{ target_relation }}
    where {{ inside | join(' or ') }} group by {{ column }}
    {% for probe in probes %} union all {{ probe }}{% endfor %}
  {% endset %}
  {% set found = dbt_backfill._execute(query) %}
  {% do dbt_backfill._commit() %}

  {% set in_reach = {} %}
  {% for value in values %}{% do in_reach.update({value: dbt_backfill._partition_ordinal(value, family)}) %}{% endfor %}
  {% for row in found.rows if row['kind'] == 'in_reach' %}
    {% do in_reach.update({row['partition_value']: dbt_backfill._partition_ordinal(row['partition_value'], family)}) %}
  {% endfor %}
  {% set probed = {} %}
  {% for row in found.rows if row['kind'] == 'probe' and row['partition_value'] is not none
                              and row['partition_value'] not in in_reach %}
    {% do probed.update({row['partition_value']: dbt_backfill._partition_ordinal(row['partition_value'], family)}) %}
  {% endfor %}
  {% set planned = {} %}{% do planned.update(in_reach) %}{% do planned.update(probed) %}
  {% do dbt_backfill._emit_result('reach', {
      'partitions': dbt_backfill._by_ordinal(in_reach),
      'probes': dbt_backfill._by_ordinal(probed),
      'planned': dbt_backfill._by_ordinal(planned),
      'ordered': true}) %}
{% endmacro %}

{# A date's day number, an integer's value: what a window of partitions counts in. #}
{% macro _partition_ordinal(value, family) %}
  {% if family == 'date' %}
    {{ return(modules.datetime.date.fromisoformat(value | string).toordinal()) }}
  {% endif %}
  {{ return(value | int) }}
{% endmacro %}

{# The partition an ordinal names, typed by the database: cast('<value>' as <the column's type>). #}
{% macro _partition_literal(ordinal, family, data_type) %}
  {% set value = modules.datetime.date.fromordinal(ordinal).isoformat() if family == 'date' else ordinal | string %}
  {{ return('cast(' ~ dbt_backfill._sql_literal(value) ~ ' as ' ~ data_type ~ ')') }}
{% endmacro %}

{# The keys of {value: ordinal}, in the ordinals' order. #}
{% macro _by_ordinal(ordinals) %}
  {% set pairs = [] %}
  {% for value, ordinal in ordinals.items() %}{% do pairs.append([ordinal, value]) %}{% endfor %}
  {{ return(pairs | sort | map(attribute=1) | list) }}
{% endmacro %}
