{#
  run-operation discards a macro's return value, so results travel through dbt's log: one line per result,
  wrapped in a sentinel the CLI looks for (elementary's pattern). Payloads hold only str/int/bool/list/dict;
  Decimals are rendered to text in SQL before they get here, because tojson cannot encode them.
#}
{% macro _emit_result(kind, payload) %}
  {% do log('<<dbt_backfill:' ~ kind ~ '>>' ~ tojson(payload) ~ '<</dbt_backfill>>', info=True) %}
{% endmacro %}
