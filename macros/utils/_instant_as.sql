{# A UTC instant (_utc_instant) as a literal comparable with a column of `family`: an instant for timestamptz, the
   UTC wall time for timestamp (read as UTC, the pinned session's zone), the day for date. #}
{% macro _instant_as(instant, family) %}
  {% if family == 'date' %}{{ return('cast(' ~ dbt_backfill._sql_literal(instant[:10]) ~ ' as date)') }}{% endif %}
  {% if family == 'timestamp' %}{{ return('cast(' ~ dbt_backfill._sql_literal(instant) ~ ' as timestamp)') }}{% endif %}
  {{ return('cast(' ~ dbt_backfill._sql_literal(instant ~ '+00:00') ~ ' as ' ~ dbt_backfill._instant_type() ~ ')') }}
{% endmacro %}
