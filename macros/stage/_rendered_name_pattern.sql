{# The pattern of `input`'s name exactly as dbt renders it (relation_name, case and quotes as they are): the
   whole name only, not the tail of `other_raw.trip_events` nor the head of `trip_events_v2` or of
   `"db"."raw"."trip_events".fare`. #}
{% macro _rendered_name_pattern(input) %}
  {{ return('(?<![\\w."`$])' ~ modules.re.escape(input.relation_name) ~ '(?![\\w."`$])') }}
{% endmacro %}
