{# What the packet and the written plan record of the windows: per partition its [start, end) and the widened one
   its build b read, per input its event_time and the spans the pin reads, the inputs read whole, where the reach
   came from, and the evidence: the proof this plan made or relies on, and the sentence that says so. #}
{% macro _windows_recorded(windowing, proof, binding) %}
  {% set inputs = [] %}
  {% for input in windowing.inputs %}
    {% do inputs.append({'relation': dbt_backfill._relation_name(dbt_backfill._relation(input)), 'event_time': input.event_time,
                         'windows': input.windows}) %}
  {% endfor %}
  {{ return({'mode': windowing.mode, 'why': windowing.why, 'before': windowing.before, 'after': windowing.after,
             'declared_by': windowing.declared_by, 'partitions': windowing.partitions, 'inputs': inputs,
             'whole': windowing.whole, 'checked': windowing.get('checked') or {},
             'proof': none if binding is none else {'binding': binding.sha256, 'proven_by_this_plan': proof.due,
                                                    'why': proof.why, 'last': proof.last},
             'evidence': none if binding is none else dbt_backfill._window_evidence(windowing, proof, binding)}) }}
{% endmacro %}
