{#
  The time after which apply refuses a packet planned now: now (UTC) + meta.backfill.approval_ttl, a number of days
  or a string `<N>d` / `<N>h` / `<N>m` / `<N>s` (default 7 days; seconds suit a CI job that plans, approves and
  applies at once and must never apply an approval left lying). An approval of rows built from a source as it was a
  week ago says less every day: past the deadline it is refused with the date, and the plan states the deadline. Returned as
  ISO 8601 with `+00:00`, the form every deadline is compared in (as text: the same form orders by time).
#}
{% macro _approval_deadline(approval_ttl) %}
  {% set ttl = 7 if approval_ttl is none else approval_ttl %}
  {% set match = modules.re.fullmatch('\\s*([0-9]+)\\s*(d|h|m|s)?\\s*', ttl | string) if ttl is not boolean else none %}
  {% if not match or (match.group(1) | int) == 0 %}
    {% do dbt_backfill._fail('meta.backfill.approval_ttl must be how long an approval holds after the plan: a number '
        ~ 'of days or `<N>d` / `<N>h` / `<N>m` / `<N>s` (e.g. 7, 7d or 48h; more than 0), not ' ~ tojson(approval_ttl) ~ '. Nothing was changed.') %}
  {% endif %}
  {% set seconds = (match.group(1) | int) * {'s': 1, 'm': 60, 'h': 3600}.get(match.group(2), 86400) %}
  {% set deadline = modules.datetime.datetime.utcnow() + modules.datetime.timedelta(seconds=seconds) %}
  {{ return(deadline.replace(microsecond=0).isoformat() ~ '+00:00') }}
{% endmacro %}
