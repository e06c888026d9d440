{# A date or ISO date-time the user gave (`name` says which option) as a UTC instant (_utc_instant): a date is its
   midnight UTC, a date-time without an offset is UTC. Anything else fails as bad input. #}
{% macro _parsed_instant(value, name) %}
  {% set text = value | string | trim %}
  {% set parsed = none %}
  {% if modules.re.fullmatch('[0-9]{4}-[0-9]{2}-[0-9]{2}([T ][0-9]{2}:[0-9]{2}(:[0-9]{2}(\\.[0-9]{1,6})?)?([+-][0-9]{2}:[0-9]{2}|Z)?)?', text)
        and dbt_backfill._real_date_time(text) %}
    {% set parsed = modules.datetime.datetime.fromisoformat(text.replace('Z', '+00:00')) if 'T' in text or ' ' in text
                    else modules.datetime.datetime.fromisoformat(text ~ 'T00:00:00') %}
  {% endif %}
  {% if parsed is none %}
    {% do dbt_backfill._fail(name ~ ' must be a date or an ISO date-time (2026-03-01, 2026-03-01T09:30:00+02:00), got '
        ~ tojson(text) ~ '. Nothing was read.') %}
  {% endif %}
  {% if parsed.tzinfo is none %}{% set parsed = parsed.replace(tzinfo=modules.pytz.utc) %}{% endif %}
  {{ return(parsed.astimezone(modules.pytz.utc).strftime('%Y-%m-%d %H:%M:%S.%f')) }}
{% endmacro %}
