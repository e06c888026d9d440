{# Up to five values, then how many more. #}
{% macro _few(values) %}
  {{ return(values[:5] | join(', ') ~ (' and ' ~ (values | length - 5) ~ ' more' if values | length > 5 else '')) }}
{% endmacro %}
