{#
  What changed in each input that declares a change column (`changed_at`: _changed_at_column), in one scan of it
  grouped by the day of its event_time where the stale scan windows it (else as a whole, day '*'):
  {input name: {relation_name, changed_at, time_zone (of a column without one: _change_time_zone), event_time (none
                where read as a whole), baseline (the last scan's read, or none), days: {day: {after, changed_rows, kept_before, kept_now, unsettled}}, recounted: [days whose
                kept_before differs from the last scan's count, or that held unsettled rows at the last scan]}}.
    after         the index of the latest of `thresholds` (ascending UTC instants) that some row of the day changed
                  after, or none; a row whose changed_at is NULL changed after all of them;
    changed_rows  the rows changed after the earliest threshold;
    kept_before   the rows that had changed by the last scan's read (`last.read_at`), counted now: fewer than that scan
                  counted (`last.kept`), and a row was deleted or its change time rewritten since; more, and a row
                  committed late with an older time — either way the day changed, though no time says so;
    kept_now      the same at this scan's read (`read_at`), which this scan records for the next;
    unsettled     the rows whose change column is NULL or after this read: candidates at every scan by their time,
                  and their day is a candidate at the next scan whatever its count (deleting one moves no count).
  A changed_at of a date counts a change on the day of an instant as after it (the day cannot say earlier or later).
  A change column without time zone is read in its declared zone, else UTC, never the session's; a row counts as
  changed by an instant only where no offset of that zone can place it after (_instant_as).
  Cost: one scan of each such input, whatever the partitions (no index needed; none is used by design).
#}
{% macro _input_changes(inputs, windowed_inputs, thresholds, last, read_at) %}
  {% set windowed_names = [] %}
  {% for input in windowed_inputs %}{% do windowed_names.append(dbt_backfill._relation_name(dbt_backfill._relation(input))) %}{% endfor %}
  {% set found = {} %}
  {% for input in inputs if input.get('changed_at') %}
    {% set relation = dbt_backfill._relation(input) %}
    {% set name = dbt_backfill._relation_name(relation) %}
    {% set column = dbt_backfill._columns(relation, [input.changed_at | replace('"', '') | replace('`', '')], 'changed_at')[0] %}
    {% set family = dbt_backfill._type_family(column.data_type) %}
    {% if family not in ('date', 'timestamp', 'timestamptz') %}
      {% do dbt_backfill._fail(name ~ "'s changed_at " ~ column.name ~ ' is ' ~ column.data_type ~ ': a change column '
          ~ 'is a date or a timestamp (when the row last changed). Nothing was read.') %}
    {% endif %}
    {% set zone = dbt_backfill._change_time_zone(input, name, column, family) %}
    {% set changed_at = adapter.quote(column.name) %}
    {% set windowed = name in windowed_names %}
    {% set baseline = last.read_at if last and last.same_code and last.read_at else none %}
    {% set after = ['when ' ~ changed_at ~ ' is null then ' ~ thresholds | length] %}
    {% for index in range(thresholds | length) | reverse %}
      {% do after.append('when ' ~ dbt_backfill._changed_after(changed_at, family, thresholds[index], zone) ~ ' then ' ~ index) %}
    {% endfor %}
    {% set sql %}
      select {{ 'cast(' ~ input.event_time ~ ' as date)' if windowed else "'*'" }} as bf_day,
        max(case {{ after | join(' ') }} end) as bf_after,
        count(case when {{ changed_at }} is null {% if thresholds %}or {{ dbt_backfill._changed_after(changed_at, family, thresholds[0], zone) }}{% endif %} then 1 end) as bf_changed_rows,
        count(case when {{ 'not (' ~ dbt_backfill._changed_after(changed_at, family, baseline, zone) ~ ')' if baseline else '1 = 0' }} then 1 end) as bf_kept_before,
        count(case when not ({{ dbt_backfill._changed_after(changed_at, family, read_at, zone) }}) then 1 end) as bf_kept_now,
        count(case when {{ changed_at }} is null or {{ dbt_backfill._changed_after(changed_at, family, read_at, zone) }} then 1 end) as bf_unsettled
      from {{ relation }}
      {% if windowed %}group by cast({{ input.event_time }} as date){% endif %}
    {% endset %}
    {% set days = {} %}
    {% for row in dbt_backfill._execute(sql).rows if row['bf_day'] is not none %}
      {% do days.update({dbt_backfill._partition_text(row['bf_day'], 'date') if windowed else '*': {
          'after': none if row['bf_after'] is none else row['bf_after'] | int, 'changed_rows': row['bf_changed_rows'] | int,
          'kept_before': row['bf_kept_before'] | int, 'kept_now': row['bf_kept_now'] | int,
          'unsettled': row['bf_unsettled'] | int}}) %}
    {% endfor %}
    {% set deleted = [] %}
    {% if baseline %}
      {% set counted = last.kept.get(name) or {} %}
      {% for day in (counted.keys() | list) + (days.keys() | list) if day not in deleted %}
        {% set earlier = counted.get(day) or [0, 0] %}
        {% if earlier[0] != (days.get(day) or {}).get('kept_before', 0) or earlier[1] > 0 %}{% do deleted.append(day) %}{% endif %}
      {% endfor %}
    {% endif %}
    {% do found.update({name: {'relation_name': name, 'changed_at': column.name, 'time_zone': zone,
        'event_time': input.event_time if windowed else none,
        'days': days, 'recounted': deleted | sort, 'baseline': baseline}}) %}
  {% endfor %}
  {{ return(found) }}
{% endmacro %}

{# SQL true where `column` (of `family`, its wall times in `zone`) says its row may have changed after the UTC
   `instant`; false only where it surely did not (_instant_as). #}
{% macro _changed_after(column, family, instant, zone) %}
  {{ return(column ~ (' >= ' if family == 'date' else ' > ') ~ dbt_backfill._instant_as(instant, family, zone)) }}
{% endmacro %}

{# The time zone a change column's values are written in: none for a column that has one (timestamptz: instants);
   else the input's meta.backfill.changed_at_time_zone, else UTC (as most loaders stamp, and as dbt reads a source's
   loaded_at_field), never the session's. A name that is no IANA time zone is refused. #}
{% macro _change_time_zone(input, name, column, family) %}
  {% if family == 'timestamptz' %}{{ return(none) }}{% endif %}
  {% set zone = (input.get('changed_at_time_zone') or 'UTC') | string | trim %}
  {% if zone not in modules.pytz.all_timezones_set %}
    {% do dbt_backfill._fail(name ~ "'s changed_at_time_zone " ~ tojson(zone) ~ ' is not a time zone name (UTC, '
        ~ 'Europe/Paris, America/New_York: the zone ' ~ column.name ~ "'s wall times are written in). Nothing was read.") %}
  {% endif %}
  {{ return(zone) }}
{% endmacro %}
