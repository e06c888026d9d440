{# What approve and apply say of a packet written for review only, recorded in its review (`review.refusal`) so that
   the CLI, which reads the packet without dbt, and apply_backfill say the same: the reason and the whole message. #}
{% macro _packet_refusal(plan) %}
  {% set found = dbt_backfill._review_refusal(plan) %}
  {% if found is none %}{{ return(none) }}{% endif %}
  {{ return({'reason': found.reason, 'message': found.message ~ ' The packet is for review only: approve and apply '
      ~ 'refuse it. Fix the cause and plan again. The target is unchanged.'}) }}
{% endmacro %}
