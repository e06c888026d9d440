{# A date's day number, an integer's value: what a window of partitions counts in. #}
{% macro _partition_ordinal(value, family) %}
  {% if family == 'date' %}
    {{ return(modules.datetime.date.fromisoformat(value | string).toordinal()) }}
  {% endif %}
  {{ return(value | int) }}
{% endmacro %}
