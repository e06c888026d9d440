{#
  Stop the operation. `refused` is a safety refusal (the CLI exits 3), `error` is bad input (exit 1).
  The result line comes first so the CLI can explain it; raising then makes dbt close the connection, which
  rolls back whatever transaction was open.
#}
{% macro _refuse(reason, message, details={}) %}
  {% do dbt_backfill._emit_result('refused', {'reason': reason, 'message': message, 'details': details}) %}
  {{ exceptions.raise_compiler_error('dbt_backfill refused (' ~ reason ~ '): ' ~ message) }}
{% endmacro %}

{% macro _fail(message) %}
  {% do dbt_backfill._emit_result('error', {'message': message}) %}
  {{ exceptions.raise_compiler_error('dbt_backfill: ' ~ message) }}
{% endmacro %}

{#
  Say what the operation is about to do and what it means if the next statement fails (a malformed partition
  value, an insert the target rejects): the CLI reports that sentence when dbt fails without a result.
#}
{% macro _step(doing, if_it_fails) %}
  {% do dbt_backfill._emit_result('step', {'doing': doing, 'if_it_fails': if_it_fails}) %}
  {# a person running the operation (pure dbt) reads one line per step #}
  {% if not dbt_backfill._results_shown() %}{% do log('dbt_backfill: ' ~ doing, info=true) %}{% endif %}
{% endmacro %}
