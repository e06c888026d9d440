{#
  The partitions a stale scan looks at: {values (in order), how (in words)}.
  Named (`partitions`): exactly those, checked as plan checks them; one the target lacks is looked at too (a gap
  if the model builds rows there). Else every partition from the target's first to its last: for a date or integer
  column each value between them (a day, or a month where every value the target holds is a month's first day),
  so a missing partition inside the published range is found; where that would be more than four times the values
  the target holds (sparse integers), the held values alone. NULL partitions are left out (no plan can name one).
  A date column is read by its first and last value and one probe for a day that is not a month's first (a scan that
  stops at the first such row): no pass over the table's distinct values, which P9 paid at 100 days.
#}
{% macro _stale_scope(relation, scope, partitions) %}
  {% set family = dbt_backfill._type_family(scope.partition_column.data_type) %}
  {% set named = dbt_backfill._named_partition_values(partitions, scope.partition_column.name, relation) %}
  {% if named is not none %}
    {% do dbt_backfill._check_partition_values(scope, named) %}
    {{ return({'values': dbt_backfill._in_order(named, family), 'how': 'as named'}) }}
  {% endif %}
  {% set column = adapter.quote(scope.partition_column.name) %}
  {% if family == 'date' %}
    {% set span = dbt_backfill._date_span(relation, column) %}
    {% if span is not none %}{{ return(span) }}{% endif %}
  {% endif %}
  {% set held = {} %}
  {% for row in dbt_backfill._execute('select distinct ' ~ column ~ ' as bf_partition from ' ~ relation
                                      ~ ' where ' ~ column ~ ' is not null').rows %}
    {% set value = dbt_backfill._partition_text(row['bf_partition'], family) %}
    {% do held.update({value: dbt_backfill._ordering_key(value, family)}) %}
  {% endfor %}
  {% set values = dbt_backfill._by_ordinal(held) %}
  {% set filled = dbt_backfill._filled_range(values, family, 4 * values | length) %}
  {% if filled | length > values | length %}
    {% set step = 'value' if family == 'integer' else 'month' if filled[1][8:] == '01' and filled[0][8:] == '01' else 'day' %}
    {{ return({'values': filled, 'how': 'every ' ~ step ~ ' from the first partition the target holds to its last ('
        ~ values | length ~ ' held, ' ~ (filled | length - values | length) ~ ' between them missing)'}) }}
  {% endif %}
  {{ return({'values': values, 'how': 'every partition the target holds'}) }}
{% endmacro %}

{# Every value from the first of `values` to the last, in order: days (months where every value is a month's first
   day) or integers; `values` itself for any other family, or where that would be more than `at_most` values. #}
{% macro _filled_range(values, family, at_most) %}
  {% if not values or family not in ('date', 'integer') %}{{ return(values) }}{% endif %}
  {% if family == 'integer' %}
    {% if (values[-1] | int) - (values[0] | int) + 1 > at_most %}{{ return(values) }}{% endif %}
    {% set filled = [] %}
    {% for n in range(values[0] | int, (values[-1] | int) + 1) %}{% do filled.append(n | string) %}{% endfor %}
    {{ return(filled) }}
  {% endif %}
  {% set days = [] %}
  {% for value in values if value[8:10] != '01' %}{% do days.append(value) %}{% endfor %}
  {% set filled = dbt_backfill._calendar_values(values[0], values[-1], values | length > 1 and not days, at_most) %}
  {{ return(values if filled is none else filled) }}
{% endmacro %}

{# Every day (every month's first day where `monthly`) from the ISO date `first` to `last`, both included; none where
   that would be more than `at_most` values (nothing built). #}
{% macro _calendar_values(first, last, monthly, at_most) %}
  {% set start, end = modules.datetime.date.fromisoformat(first), modules.datetime.date.fromisoformat(last) %}
  {% set count = (end.year - start.year) * 12 + end.month - start.month + 1 if monthly else (end - start).days + 1 %}
  {% if count > at_most %}{{ return(none) }}{% endif %}
  {% set values = [] %}
  {% for n in range(count) %}
    {% if monthly %}
      {% set month = start.month - 1 + n %}
      {% do values.append(modules.datetime.date(start.year + month // 12, month % 12 + 1, 1).isoformat()) %}
    {% else %}
      {% do values.append((start + modules.datetime.timedelta(days=n)).isoformat()) %}
    {% endif %}
  {% endfor %}
  {{ return(values) }}
{% endmacro %}

{# A date partition column's scope from its first and last value: every day between them, or every month where no
   value is another day than a month's first; none (read the distinct values instead) when the target is empty or
   the span is over 20,000 values. #}
{% macro _date_span(relation, column) %}
  {% set bounds = dbt_backfill._execute('select min(' ~ column ~ ') as bf_first, max(' ~ column ~ ') as bf_last from '
                                        ~ relation).rows[0] %}
  {% if bounds['bf_first'] is none %}{{ return(none) }}{% endif %}
  {% set first = dbt_backfill._partition_text(bounds['bf_first'], 'date') %}
  {% set last = dbt_backfill._partition_text(bounds['bf_last'], 'date') %}
  {% set monthly = first[8:] == '01' and last[8:] == '01' and not dbt_backfill._execute('select 1 as bf_day from '
      ~ relation ~ ' where extract(day from ' ~ column ~ ') <> 1 limit 1').rows %}
  {% set values = dbt_backfill._calendar_values(first, last, monthly, 20000) %}
  {% if values is none %}{{ return(none) }}{% endif %}
  {{ return({'values': values, 'how': 'every ' ~ ('month' if monthly else 'day') ~ ' from the first partition the target '
             ~ 'holds to its last'}) }}
{% endmacro %}
