{# A UTC instant (_utc_instant) as a literal comparable with a column of `family`: an instant for timestamptz. For a
   column without time zone (timestamp, date) whose values are wall times in `zone` (an IANA name; UTC unless the
   input declares meta.backfill.changed_at_time_zone), the earliest wall time a later instant can carry there: the
   instant plus the zone's smallest UTC offset in the two days either side (a clock put back repeats an hour, whose
   later wall times are not later instants), as a timestamp, or its day for a date. Never the session's time zone:
   the same column compares alike from a session in Tokyo and one in UTC. #}
{% macro _instant_as(instant, family, zone='UTC') %}
  {% if family not in ('date', 'timestamp') %}
    {{ return('cast(' ~ dbt_backfill._sql_literal(instant ~ '+00:00') ~ ' as ' ~ dbt_backfill._instant_type() ~ ')') }}
  {% endif %}
  {% set datetime = modules.datetime %}
  {% set at = modules.pytz.utc.localize(datetime.datetime.strptime(instant, '%Y-%m-%d %H:%M:%S.%f')) %}
  {% set offsets = [] %}
  {% for days in (-2, 0, 2) %}
    {% do offsets.append((at + datetime.timedelta(days=days)).astimezone(modules.pytz.timezone(zone)).utcoffset()) %}
  {% endfor %}
  {% set wall = (at + offsets | min).replace(tzinfo=none) %}
  {{ return('cast(' ~ dbt_backfill._sql_literal(wall.strftime('%Y-%m-%d %H:%M:%S.%f')) ~ ' as timestamp)' if family == 'timestamp'
            else 'cast(' ~ dbt_backfill._sql_literal(wall.date().isoformat()) ~ ' as date)') }}
{% endmacro %}
