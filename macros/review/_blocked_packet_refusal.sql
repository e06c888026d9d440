{#
  What approve and apply say of a packet that is for review only, or none. The packet's own record comes first
  (`review.refusal`, written by _packet_refusal since issue 56). Where that record is missing or was emptied, the
  same rule is run over the packet's gates and checks. Where those say nothing but the verdict is BLOCK, the verdict
  decides; `outcome` is the plan row's verdict, which the planner wrote, so an edited packet cannot lower it. The
  last case's words are the CLI's for a packet without a record (workflow/approval.refuse_blocked).
#}
{% macro _blocked_packet_refusal(packet, outcome=none) %}
  {% set review = packet.get('review') or {} %}
  {% set found = review.get('refusal') or dbt_backfill._packet_refusal({'gates': packet.get('gates') or [],
                                                                        'review': {'checks': review.get('checks') or []}}) %}
  {% if found %}{{ return(found) }}{% endif %}
  {% if review.get('verdict') == 'BLOCK' or outcome == 'BLOCK' %}
    {{ return({'reason': 'review_blocked', 'message': 'the review judged the plan BLOCK (' ~ review.get('reason') ~ '). '
        ~ 'The packet is for review only: approve and apply refuse it. Fix the cause and plan again. The target is '
        ~ 'unchanged.'}) }}
  {% endif %}
  {{ return(none) }}
{% endmacro %}
