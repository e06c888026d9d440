{# The command that plans `values` of `model` again, on the path `run_id` was planned on (pure dbt or the CLI). #}
{% macro _plan_command(ledger, run_id, model, values) %}
  {% if (ledger.runs.get(run_id) or {}).get('pure_dbt') %}
    {{ return('dbt run-operation dbt_backfill.plan_backfill --args \'{model: ' ~ model ~ ', partitions: "' ~ values ~ '"}\'') }}
  {% endif %}
  {{ return('dbt-backfill plan ' ~ model ~ ' --partitions ' ~ values) }}
{% endmacro %}
