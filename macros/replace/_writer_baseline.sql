{#
  What a write session reads of the table once, before it reads any partition: nothing on most engines and formats;
  Delta's own leaf reads the table's version (replace/delta/_writer_baseline.sql). Laid into the target's layout
  by _target_layout when `writing`.
#}
{% macro _writer_baseline(target_relation) %}
  {{ return(adapter.dispatch('_writer_baseline', 'dbt_backfill')(target_relation)) }}
{% endmacro %}

{% macro default___writer_baseline(target_relation) %}
  {{ return({}) }}
{% endmacro %}
