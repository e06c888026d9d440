{# A partition value the driver returned, as the packet spells it: a date as YYYY-MM-DD, an integer without a
   fraction, a text as it is. #}
{% macro _partition_text(value, family) %}
  {% if family == 'date' %}{{ return(value.isoformat() if value is not string else value[:10]) }}{% endif %}
  {% if family == 'integer' %}{{ return(value | int | string) }}{% endif %}
  {{ return(value | string) }}
{% endmacro %}
