{#
  run-operation discards a macro's return value, so results travel through dbt's log: one line per result,
  wrapped in a sentinel the CLI looks for (elementary's pattern). Payloads hold only str/int/bool/list/dict;
  Decimals are rendered to text in SQL before they get here, because tojson cannot encode them.
  On dbt's debug level by default (the CLI reads every level; dbt's log file keeps them), so a pure-dbt run shows
  people the human lines alone; on stdout too with --vars '{dbt_backfill_debug: true}' or DBT_BACKFILL_DEBUG=1.
#}
{% macro _emit_result(kind, payload) %}
  {% do log('<<dbt_backfill:' ~ kind ~ '>>' ~ tojson(payload) ~ '<</dbt_backfill>>', info=dbt_backfill._results_shown()) %}
{% endmacro %}
