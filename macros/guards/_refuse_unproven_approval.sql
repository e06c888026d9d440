{#
  Refuse, before anything is read or written, an apply whose approval the model's policy does not accept
  (_approval_policy): fewer distinct signers it names than it requires. `approval.signatures`: the approvals the
  CLI verified against the project's allowed-signers file, [{principal, key, approved_at}] (a key is checked by
  OpenSSH outside the warehouse; pure dbt's apply_backfill has none to give). A principal counts once, however many
  signatures it made. A model without a policy accepts the typed name, as before.
#}
{% macro _refuse_unproven_approval(model, run_id, approval) %}
  {# a model no longer in the project (renamed, removed) is held to the project's policy: its rollback stays open #}
  {% set nodes = graph.nodes.values() | selectattr('resource_type', 'equalto', 'model') | selectattr('name', 'equalto', model)
      | list %}
  {% set policy = dbt_backfill._approval_policy(nodes[0] if nodes | length == 1 else none) %}
  {% if not policy.declared %}{{ return(none) }}{% endif %}
  {% set counted = [] %}
  {% for signature in approval.get('signatures') or [] if signature.principal in policy.signers %}
    {% if signature.principal not in counted %}{% do counted.append(signature.principal) %}{% endif %}
  {% endfor %}
  {% if counted | length < policy.required %}
    {% do dbt_backfill._refuse('approval_unproven', model ~ '\'s approval policy requires ' ~ policy.required
        ~ ' approval(s) signed by a key the project\'s .dbt-backfill/allowed_signers lists for one of '
        ~ policy.signers | join(', ') ~ '; this packet has ' ~ counted | length
        ~ ((' (' ~ counted | join(', ') ~ ')') if counted else '') ~ ((': the approval by ' ~ approval.get('approved_by')
        ~ ' is a typed name, which proves no one') if not counted else '') ~ '. Each approver signs with `dbt-backfill '
        ~ 'approve PACKET --sign KEY`, and the CLI verifies the signatures (pure dbt cannot run OpenSSH). The target is '
        ~ 'unchanged.', {'run_id': run_id, 'required': policy.required, 'counted': counted}) %}
  {% endif %}
{% endmacro %}
