{# The session settings this invocation had before its first pin (pin_session), by name: what _unpin_session gives
   back, and the time zone `dbt run` writes its local times in (_instant_as). Empty until something is pinned. #}
{% macro _remembered_settings() %}
  {{ return(graph.setdefault('dbt_backfill_session', {}).setdefault(invocation_id, {})) }}
{% endmacro %}
