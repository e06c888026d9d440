{# The command that rolls back `run_id`, as the ledger knows it: the pure-dbt operation for a run planned there, the
   CLI's rollback of the packet its plan wrote otherwise (its path quoted for the shell where it must be); either
   with the invocation's --target and --vars (_invocation_flags). #}
{% macro _rollback_command(ledger, run_id) %}
  {% set run = ledger.runs.get(run_id) or {} %}
  {% if run.get('pure_dbt') %}
    {{ return('dbt run-operation dbt_backfill.rollback_backfill --args \'{run_id: ' ~ run_id ~ '}\''
              ~ dbt_backfill._invocation_flags()) }}
  {% endif %}
  {{ return('dbt-backfill rollback ' ~ (dbt_backfill._shell_word(run.packet) if run.get('packet')
            else '<the packet of run ' ~ run_id ~ '>') ~ dbt_backfill._invocation_flags(true)) }}
{% endmacro %}
