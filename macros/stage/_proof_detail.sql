{# A `window_proven` row's detail as {binding, parts, partitions, read_at}, whatever the text holds (a row that is
   not what _record_window_proof writes proves nothing: its binding matches no code). #}
{% macro _proof_detail(text) %}
  {% set detail = fromjson(text) if text is string else none %}
  {% if detail is not mapping %}{{ return({'binding': none, 'parts': {}, 'partitions': [], 'read_at': none}) }}{% endif %}
  {{ return({'binding': detail.get('binding') if detail.get('binding') is string else none,
             'read_at': detail.get('read_at') if detail.get('read_at') is string else none,
             'parts': detail.get('parts') if detail.get('parts') is mapping else {},
             'partitions': detail.get('partitions') if detail.get('partitions') is sequence
                           and detail.get('partitions') is not string else []}) }}
{% endmacro %}
