{# Give the session back the values it had before the first pin (the model's own session), until the next pin. #}
{% macro _unpin_session() %}
  {% set remembered = graph.get('dbt_backfill_session', {}).pop(invocation_id, {}) %}
  {% for name, value in remembered.items() %}
    {% do dbt_backfill._set_setting(name, value) %}
  {% endfor %}
  {% do dbt_backfill._commit() %}
{% endmacro %}
