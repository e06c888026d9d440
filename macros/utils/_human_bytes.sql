{# A byte count as a person reads it (bytes, KiB, MiB, GiB, TiB); 'unknown bytes' for none. #}
{% macro _human_bytes(count) %}
  {% if count is none %}{{ return('unknown bytes') }}{% endif %}
  {% set units = ['bytes', 'KiB', 'MiB', 'GiB', 'TiB'] %}
  {% set power = [0] %}
  {% for candidate in range(1, units | length) if count >= 1024 ** candidate %}{% do power.append(candidate) %}{% endfor %}
  {% set power = power | max %}
  {% if power == 0 %}{{ return(count ~ ' bytes') }}{% endif %}
  {{ return('%.1f' | format(count / (1024 ** power)) ~ ' ' ~ units[power]) }}
{% endmacro %}
