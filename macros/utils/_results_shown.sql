{# Whether results go to stdout as well (the debug var, or DBT_BACKFILL_DEBUG in the environment). #}
{% macro _results_shown() %}
  {{ return((var('dbt_backfill_debug', false) | string | lower) in ('true', '1')
            or (env_var('DBT_BACKFILL_DEBUG', '') | lower) in ('true', '1')) }}
{% endmacro %}
