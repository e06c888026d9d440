{# `event_time` within any of `windows` ([start, end) days). The bounds are literals of the event_time column's kind:
   a day for a date or a timestamp without time zone, a UTC instant for a timestamp with time zone (as dbt writes
   a microbatch bound, `2026-03-01 00:00:00+00:00`), so the builds (in the session's zone) and the pin (pinned to
   UTC) read the same rows. #}
{% macro _window_predicate(event_time, windows, event_time_type) %}
  {% set suffix = ' 00:00:00+00:00' if event_time_type == 'timestamptz' else '' %}
  {% set spans = [] %}
  {% for window in windows %}
    {% do spans.append('(' ~ event_time ~ " >= '" ~ window[0] ~ suffix ~ "' and " ~ event_time ~ " < '" ~ window[1] ~ suffix ~ "')") %}
  {% endfor %}
  {{ return(spans | join(' or ')) }}
{% endmacro %}
