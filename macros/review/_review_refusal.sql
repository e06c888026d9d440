{# A plan written for review only: its reconciliation gates failed, or its review judged a check BLOCK. The refusal's
   reason, its first words and details, or none. At plan time each path adds where it wrote the packet (the CLI: the
   file and the written plan; pure dbt: the audit row); later, approve and apply say the packet's own record of it
   (_packet_refusal). The one home of the rule and its words. #}
{% macro _review_refusal(plan) %}
  {% set failed = plan.gates | rejectattr('passed') | list %}
  {% if failed %}
    {% set described = [] %}
    {% for g in failed %}{% do described.append(g.check ~ ' on ' ~ g.partition ~ ': ' ~ g.observed ~ ', expected ' ~ g.expected) %}{% endfor %}
    {{ return({'reason': 'gate_failed', 'details': {'gates': failed},
        'message': 'reconciliation gate(s) of meta.backfill.checks failed (' ~ described | join('; ') ~ ').'}) }}
  {% endif %}
  {% set blocking = plan.review.checks | selectattr('severity', 'equalto', 'block') | list %}
  {% if blocking %}
    {% set described = [] %}
    {% for c in blocking %}{% do described.append(c.check ~ ': ' ~ c.finding) %}{% endfor %}
    {{ return({'reason': 'review_blocked', 'details': {'checks': blocking},
        'message': 'the review judged the plan BLOCK (' ~ described | join('; ') ~ ').'}) }}
  {% endif %}
  {{ return(none) }}
{% endmacro %}
