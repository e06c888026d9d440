{# An instant the database printed in the pinned session (UTC), as 'YYYY-MM-DD HH:MM:SS.ffffff': one spelling,
   so two instants compare as text and write back as literals of any column kind (_instant_as). #}
{% macro _utc_instant(text) %}
  {% set parts = modules.re.match('([0-9]{4}-[0-9]{2}-[0-9]{2})[T ]([0-9]{2}:[0-9]{2}:[0-9]{2})(?:[.]([0-9]+))?', text | string) %}
  {% if parts is none %}{{ return(none) }}{% endif %}
  {{ return(parts.group(1) ~ ' ' ~ parts.group(2) ~ '.' ~ ((parts.group(3) or '') ~ '000000')[:6]) }}
{% endmacro %}
