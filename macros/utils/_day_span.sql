{# The days a partition's inputs are read for: [day - before, day + 1 + after), as ISO dates. #}
{% macro _day_span(day, before, after) %}
  {{ return({'start': (day - modules.datetime.timedelta(days=before)).isoformat(),
             'end': (day + modules.datetime.timedelta(days=1 + after)).isoformat()}) }}
{% endmacro %}
