{# What YAML made of an argument, in words. #}
{% macro _yaml_kind(value) %}
  {% if value is none %}{{ return('null') }}
  {% elif value is boolean %}{{ return('the boolean ' ~ tojson(value)) }}
  {% elif value is integer %}{{ return('the integer ' ~ value) }}
  {% elif value is number %}{{ return('the number ' ~ value) }}
  {% elif value is mapping %}{{ return('a map') }}
  {% elif value is string %}{{ return('a string') }}
  {% elif value.hour is defined %}{{ return('the timestamp ' ~ value) }}
  {% elif value.year is defined %}{{ return('the date ' ~ value) }}
  {% else %}{{ return('a list') }}
  {% endif %}
{% endmacro %}
