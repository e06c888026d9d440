{# The keys of {value: ordering key}, in that order. #}
{% macro _by_ordinal(keys) %}
  {% set pairs = [] %}
  {% for value, key in keys.items() %}{% do pairs.append([key, value]) %}{% endfor %}
  {{ return(pairs | sort | map(attribute=1) | list) }}
{% endmacro %}
