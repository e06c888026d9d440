{# How the approval was proven, as the apply that records it writes it in its `approved` row's detail (read back by
   _approval_proof): "; signed by <principal> (key <fingerprint>, signed <time>), …" for each key the CLI verified,
   nothing for a typed name. #}
{% macro _signatures_said(approval) %}
  {% set each = [] %}
  {% for signature in approval.get('signatures') or [] %}
    {% do each.append(signature.principal ~ ' (key ' ~ signature.key ~ ', signed ' ~ signature.approved_at ~ ')') %}
  {% endfor %}
  {{ return(('; signed by ' ~ each | join(', ')) if each else '') }}
{% endmacro %}
