{# The value of an item written in double quotes ("a..b"), or none (workflow/plan.py literal). #}
{% macro _quoted_value(item) %}
  {{ return(item[1:-1] if item | length >= 2 and item[0] == '"' and item[-1] == '"' else none) }}
{% endmacro %}
