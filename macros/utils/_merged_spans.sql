{# [start, end) spans (ISO days), sorted and merged where they touch or overlap: as few as it takes. What the pin
   and the builds read of a windowed input (_input_windows), and the stale scan's one read of many partitions. #}
{% macro _merged_spans(spans) %}
  {% set merged = [] %}
  {% for span in spans | sort %}
    {% if merged and span[0] <= merged[-1][1] %}
      {% set last = merged.pop() %}
      {% do merged.append([last[0], [last[1], span[1]] | max]) %}
    {% else %}
      {% do merged.append([span[0], span[1]]) %}
    {% endif %}
  {% endfor %}
  {{ return(merged) }}
{% endmacro %}
