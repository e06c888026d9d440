{# A new mapping: `base` updated with `extra` (neither is changed). #}
{% macro _merged(base, extra) %}
  {% set merged = {} %}
  {% do merged.update(base) %}
  {% do merged.update(extra) %}
  {{ return(merged) }}
{% endmacro %}
