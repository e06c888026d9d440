{# One `window_proven` row, committed: the binding, its parts, the partitions, passed or failed, how, and when the
   builds started reading the inputs. #}
{% macro _record_window_proof(target_relation, run_id, model, binding, partitions, passed, how, read_at) %}
  {% do dbt_backfill.record_audit_event(target_relation, 'window_proven', run_id, {'model': model,
      'outcome': 'passed' if passed else 'failed', 'detail': {'binding': binding.sha256, 'parts': binding.parts,
      'partitions': partitions, 'how': how, 'read_at': read_at}}) %}
  {% do dbt_backfill._commit() %}
{% endmacro %}
