{#
  Stop the operation. `refused` is a safety refusal (the CLI exits 3), `error` is bad input (exit 1).
  The result line comes first so the CLI can explain it; raising then makes dbt close the connection, which
  rolls back whatever transaction was open.
#}
{% macro _refuse(reason, message, details={}) %}
  {% do dbt_backfill._emit_result('refused', {'reason': reason, 'message': message, 'details': details}) %}
  {{ exceptions.raise_compiler_error('dbt_backfill refused (' ~ reason ~ '): ' ~ message) }}
{% endmacro %}
