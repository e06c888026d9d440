{# A UTC instant (_utc_instant) as a literal comparable with a column of `family`: an instant for timestamptz; for a
   timestamp (no time zone) the wall time of that instant in the time zone the session had before it was pinned
   (where `dbt run`, and a loader in the same database, write their local times); for a date, that wall time's day. #}
{% macro _instant_as(instant, family) %}
  {% set as_instant = 'cast(' ~ dbt_backfill._sql_literal(instant ~ '+00:00') ~ ' as ' ~ dbt_backfill._instant_type() ~ ')' %}
  {% if family not in ('date', 'timestamp') %}{{ return(as_instant) }}{% endif %}
  {% set zone = (dbt_backfill._remembered_settings().get('TimeZone') or 'UTC') | string %}
  {% set local = 'cast(' ~ as_instant ~ ' at time zone ' ~ dbt_backfill._sql_literal(zone) ~ ' as timestamp)' %}
  {{ return(local if family == 'timestamp' else 'cast(' ~ local ~ ' as date)') }}
{% endmacro %}
