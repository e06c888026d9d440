{#
  Refuse, before anything is read or written, an apply or a rollback whose approvals the model's policy does not
  accept (_approval_policy): fewer distinct approvers than it requires. Who counts:
    - each principal of `approval.signatures`, the approvals the CLI verified against the project's allowed-signers
      file, [{principal, key, approved_at}] (a key is checked by OpenSSH outside the warehouse; pure dbt's
      apply_backfill has none to give), if the policy names it;
    - each role that recorded an `approval_given` row for this run and packet (_approving_roles: PostgreSQL names
      the writer of every row, and no role can write another's name), if it is a member of a role the policy names;
      not the role that recorded the plan, unless planner_may_approve.
  One person counts once, however many keys, signatures or rows. A model without a policy accepts the typed name, as
  before; a model no longer in the project is held to the project's policy, so its rollback stays possible.
#}
{% macro _refuse_unproven_approval(model, run_id, approval, target_relation) %}
  {% set nodes = graph.nodes.values() | selectattr('resource_type', 'equalto', 'model') | selectattr('name', 'equalto', model)
      | list %}
  {% set policy = dbt_backfill._approval_policy(nodes[0] if nodes | length == 1 else none) %}
  {# who may approve is the project's to say (dbt_project.yml, the model's config), never one command line's --vars #}
  {% set given_vars = invocation_args_dict.get('vars') or {} %}
  {% if 'dbt_backfill_approval' in (given_vars if given_vars is mapping else given_vars | string) %}
    {% do dbt_backfill._refuse('policy_override', '--vars sets dbt_backfill_approval: who may approve ' ~ model
        ~ ' is the project\'s to say (the var in dbt_project.yml, or meta.backfill.approval), never a command line\'s. '
        ~ 'The target is unchanged.', {'run_id': run_id}) %}
  {% endif %}
  {% if not policy.declared %}{{ return(none) }}{% endif %}
  {% set counted, left_out = [], [] %}
  {% for signature in approval.get('signatures') or [] if signature.principal in policy.signers %}
    {% if signature.principal not in counted %}{% do counted.append(signature.principal) %}{% endif %}
  {% endfor %}
  {# a cascade's child is approved by its root: the root run's approvals given with a login count for it, where the
     child's plan recorded that root (a claim in the arguments alone is anyone's word); they are recorded beside the
     root's own table, which a child in another schema does not share #}
  {% set root = dbt_backfill._recorded_cascade_root(target_relation, run_id, approval.get('cascade_of')) %}
  {% if approval.get('cascade_of') and root is none %}
    {% do left_out.append('the claimed cascade root (run ' ~ approval.cascade_of.get('run_id') ~ ') is not the one this '
        ~ 'run\'s plan recorded') %}
  {% endif %}
  {% set given_for = root or {'run_id': run_id, 'packet_sha256': approval.get('packet_sha256')} %}
  {% set given_to = dbt_backfill._relation(root.target_relation) if root and root.get('target_relation') else target_relation %}
  {% set roles = dbt_backfill._approving_roles(given_to, given_for.run_id, given_for.packet_sha256, policy.roles)
      if policy.roles else [] %}
  {% for given in roles %}
    {% if given.revoked %}
      {% do left_out.append('role ' ~ given.role ~ ' revoked its approval') %}
    {% elif given.planner and not policy.planner_may_approve %}
      {% do left_out.append('role ' ~ given.role ~ ' recorded the plan, and the policy does not let the planner approve') %}
    {% elif given.member %}
      {% do counted.append('role ' ~ given.role) %}
    {% else %}
      {% do left_out.append('role ' ~ given.role ~ ' is not a member of ' ~ policy.roles | join(', ')) %}
    {% endif %}
  {% endfor %}
  {% if counted | length < policy.required %}
    {% do dbt_backfill._refuse('approval_unproven', model ~ '\'s approval policy requires ' ~ policy.required
        ~ ' approval(s) by distinct people (' ~ ((('keys listed for ' ~ policy.signers | join(', ')) if policy.signers else '')
        ~ (' or ' if policy.signers and policy.roles else '') ~ (('members of ' ~ policy.roles | join(', '))
        if policy.roles else '')) ~ '); this packet has ' ~ counted | length
        ~ ((' (' ~ counted | join(', ') ~ ')') if counted else '')
        ~ ((': the approval by ' ~ approval.get('approved_by') ~ ' is a typed name, which proves no one') if not counted else '')
        ~ ('; not counted: ' ~ left_out | join('; ') if left_out else '') ~ '. Each approver signs with `dbt-backfill '
        ~ 'approve PACKET --sign KEY` (the CLI verifies the keys; pure dbt cannot run OpenSSH)'
        ~ (', or records the approval with their own login: `dbt-backfill approve PACKET --target …` or `dbt run-operation '
           ~ 'dbt_backfill.approve_backfill`' if policy.roles else '') ~ '. The target is unchanged.',
        {'run_id': run_id, 'required': policy.required, 'counted': counted}) %}
  {% endif %}
{% endmacro %}

{# The cascade root run `run_id`'s plan recorded (its `cascade_planned` row, trusted as a plan row: _trusted_writer),
   when it is the one `claimed` names (run and packet); else none. #}
{% macro _recorded_cascade_root(target_relation, run_id, claimed) %}
  {% if not claimed %}{{ return(none) }}{% endif %}
  {% set audit = dbt_backfill._audit_relation(target_relation) %}
  {% if adapter.get_relation(database=audit.database, schema=audit.schema, identifier=audit.identifier) is none %}
    {{ return(none) }}
  {% endif %}
  {% set rows = dbt_backfill._execute("select detail from " ~ audit ~ " where event = 'cascade_planned' and run_id = "
      ~ dbt_backfill._sql_literal(run_id) ~ ' and ' ~ dbt_backfill._trusted_writer(audit, target_relation)).rows %}
  {% for row in rows if (row[0] or '').startswith('{') %}
    {% set recorded = fromjson(row[0]) %}
    {% if recorded.get('run_id') == claimed.get('run_id') and recorded.get('packet_sha256') == claimed.get('packet_sha256') %}
      {{ return(recorded) }}
    {% endif %}
  {% endfor %}
  {{ return(none) }}
{% endmacro %}
