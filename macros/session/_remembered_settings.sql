{# The session settings this invocation had before its first pin (pin_session), by name: what _unpin_session gives
   back to the model's SQL. Empty until something is pinned. #}
{% macro _remembered_settings() %}
  {{ return(graph.setdefault('dbt_backfill_session', {}).setdefault(invocation_id, {})) }}
{% endmacro %}
