{# The command that rolls back `run_id`, as the ledger knows it: the pure-dbt operation for a run planned there, the
   CLI's rollback of the packet its plan wrote otherwise. #}
{% macro _rollback_command(ledger, run_id) %}
  {% set run = ledger.runs.get(run_id) or {} %}
  {% if run.get('pure_dbt') %}
    {{ return('dbt run-operation dbt_backfill.rollback_backfill --args \'{run_id: ' ~ run_id ~ '}\'') }}
  {% endif %}
  {{ return('dbt-backfill rollback ' ~ (run.get('packet') or '<the packet of run ' ~ run_id ~ '>')) }}
{% endmacro %}
