{#
  Say what the operation is about to do and what it means if the next statement fails (a malformed partition
  value, an insert the target rejects): the CLI reports that sentence when dbt fails without a result.
#}
{% macro _step(doing, if_it_fails) %}
  {% do dbt_backfill._emit_result('step', {'doing': doing, 'if_it_fails': if_it_fails}) %}
  {# a person running the operation (pure dbt) reads one line per step #}
  {% if not dbt_backfill._results_shown() %}{% do log('dbt_backfill: ' ~ doing, info=true) %}{% endif %}
{% endmacro %}
