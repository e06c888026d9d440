{# Each item as itself, "a quoted value" as the value between its quotes (never a range: how a text value holding
   `..` is named), or `first..last` of two ISO dates (day by day) or two integers, inclusive: the CLI's
   --partitions ranges (workflow/plan.py expand_range), at most 10,000 values a range and 10,000 in all. #}
{% macro _expanded_partitions(items) %}
  {% set values = [] %}
  {% for item in items %}
    {% set ends = item.split('..') %}
    {% if dbt_backfill._quoted_value(item) is not none %}
      {% do values.append(dbt_backfill._quoted_value(item)) %}
    {% elif ends | length == 1 %}
      {% do values.append(item) %}
    {% else %}
      {% set dates = ends | length == 2 and modules.re.fullmatch('[0-9]{4}-[0-9]{2}-[0-9]{2}', ends[0])
                     and modules.re.fullmatch('[0-9]{4}-[0-9]{2}-[0-9]{2}', ends[1]) %}
      {% set integers = ends | length == 2 and modules.re.fullmatch('-?[0-9]{1,18}', ends[0])
                        and modules.re.fullmatch('-?[0-9]{1,18}', ends[1]) %}
      {% if dates and not (dbt_backfill._real_date_time(ends[0]) and dbt_backfill._real_date_time(ends[1])) %}
        {% do dbt_backfill._fail('partition range ' ~ tojson(item) ~ ' names a day no calendar has. Nothing was changed.') %}
      {% endif %}
      {% if not (dates or integers) %}
        {% do dbt_backfill._fail('partition range ' ~ tojson(item) ~ ' is not first..last of two ISO dates '
            ~ '(2026-01-01..2026-03-31) or two integers (1..12). Nothing was changed.') %}
      {% endif %}
      {% set low = modules.datetime.date.fromisoformat(ends[0]).toordinal() if dates else ends[0] | int %}
      {% set high = modules.datetime.date.fromisoformat(ends[1]).toordinal() if dates else ends[1] | int %}
      {% if high < low or high - low >= 10000 %}
        {% do dbt_backfill._fail('partition range ' ~ tojson(item) ~ (' is empty: its first value comes after its last'
            if high < low else ' spans more than 10,000 values') ~ '. Nothing was changed.') %}
      {% endif %}
      {% for n in range(low, high + 1) %}
        {% do values.append(modules.datetime.date.fromordinal(n).isoformat() if dates else n | string) %}
      {% endfor %}
    {% endif %}
    {% if values | length > 10000 %}  {# checked as it grows: three ranges under the cap each are still too many #}
      {% do dbt_backfill._fail('the partitions named come to more than 10,000 values (every range and value together). '
          ~ 'Nothing was changed.') %}
    {% endif %}
  {% endfor %}
  {{ return(values) }}
{% endmacro %}
