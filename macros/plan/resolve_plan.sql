{#
  The CLI's first operation of a plan: _resolve_plan (the model's meta.backfill with the overrides, its
  materialization, the partition values and the run's id), emitted as `resolved_plan`. plan_backfill resolves the
  same way, so both paths refuse the same requests with the same words.
#}
{% macro resolve_plan(model, partitions, overrides={}, allowances={}) %}
  {% if not execute %}{{ return('') }}{% endif %}
  {% do dbt_backfill._emit_result('resolved_plan',
      dbt_backfill._resolve_plan(dbt_backfill._model_node(model), partitions, overrides, allowances)) %}
{% endmacro %}
