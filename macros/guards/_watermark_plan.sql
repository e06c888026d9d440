{# What the plan says of the live job's watermark (read before the builds: `before`): {before, after, raised}, after
   predicted from the builds for a column watermark (_watermark_after); a state table or query cannot be predicted
   (after none): apply checks it inside every partition's transaction. None without a watermark. #}
{% macro _watermark_plan(watermark_before, target_relation, stages, scope) %}
  {% if not watermark_before %}{{ return(none) }}{% endif %}
  {% set watermark_plan = {'before': watermark_before, 'after': none, 'raised': false} %}
  {% if watermark_before.kind == 'column' %}
    {% set predicted = dbt_backfill._watermark_after(watermark_before.column, target_relation, stages, scope) %}
    {% set after_state = {} %}
    {% do after_state.update(watermark_before) %}
    {% do after_state.update({'value': predicted.value}) %}
    {% set watermark_plan = {'before': watermark_before, 'after': after_state, 'raised': predicted.raised} %}
  {% endif %}
  {{ return(watermark_plan) }}
{% endmacro %}
