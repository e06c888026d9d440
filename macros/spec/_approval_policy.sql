{#
  Who may approve a model's backfills (issue 55), declared where dbt users declare things: meta.backfill.approval,
  else the project's var `dbt_backfill_approval`, else none. {signers: [principals], roles: [warehouse roles],
  required: N, planner_may_approve: false}: a signer is a principal of the dbt project's allowed-signers file
  (`.dbt-backfill/allowed_signers`, git's format, so the file that signs commits can be guarded by CODEOWNERS),
  proven by its key; a role is one whose members approve with their own login (PostgreSQL: the audit trail names
  the role that wrote each row). `required` distinct approvers (default 1; with signers only, at most as many as are
  named, a role having members); the role that recorded the plan counts only where planner_may_approve is true. Returns {declared, signers, roles, required,
  planner_may_approve, said (in words, for the written plan)}. A model that declares nothing keeps the typed name,
  and the plan says so.
#}
{% macro _approval_policy(node) %}
  {% set meta = (dbt_backfill._meta_backfill(node) or {}) if node else {} %}
  {% set declared = meta.get('approval') if meta is mapping and meta.get('approval') is not none
                    else var('dbt_backfill_approval', none) %}
  {% set name = node.name if node else 'the model' %}
  {% if declared is none %}
    {{ return({'declared': false, 'signers': [], 'roles': [], 'required': 0, 'planner_may_approve': true,
               'said': 'no approval policy is declared (meta.backfill.approval, var dbt_backfill_approval): any name '
                   ~ 'given to `approve --by` is accepted, and nothing proves who gave it'}) }}
  {% endif %}
  {% set fields = declared if declared is mapping else {} %}
  {% set signers, roles = fields.get('signers') or [], fields.get('roles') or [] %}
  {% set required, own = fields.get('required', 1), fields.get('planner_may_approve', false) %}
  {% set lists_ok = signers is not string and signers is iterable and roles is not string and roles is iterable
      and not (signers | reject('string') | list) and not (roles | reject('string') | list) %}
  {% if declared is not mapping
        or (declared.keys() | reject('in', ['signers', 'roles', 'required', 'planner_may_approve']) | list)
        or not lists_ok or not (signers or roles) or own is not boolean
        or required is not integer or required is sameas true or required is sameas false
        or required < 1 or (not roles and required > signers | unique | list | length) %}
    {% do dbt_backfill._fail('meta.backfill.approval of ' ~ name ~ ' must be {signers: [principals of the project\'s '
        ~ '.dbt-backfill/allowed_signers], roles: [warehouse roles whose members approve], required: N (1 by default; with '
        ~ 'signers only, at most as many as are named), planner_may_approve: false|true}, naming at least one signer or role, not '
        ~ tojson(declared) ~ '. Nothing was changed.') %}
  {% endif %}
  {% set by = [] %}
  {% if signers %}{% do by.append('signed by the keys .dbt-backfill/allowed_signers lists for ' ~ signers | unique
      | join(', ') ~ ' (`dbt-backfill approve PACKET --sign KEY`)') %}{% endif %}
  {% if roles %}{% do by.append('given with their own login by members of the role(s) ' ~ roles | unique | join(', ')
      ~ ' (`dbt-backfill approve PACKET --target …`, or dbt_backfill.approve_backfill)') %}{% endif %}
  {{ return({'declared': true, 'signers': signers | unique | list, 'roles': roles | unique | list, 'required': required,
             'planner_may_approve': own,
             'said': required ~ ' approval(s) by distinct people, ' ~ by | join(' or ') ~ ('' if own or not roles
                 else '; not the role that recorded the plan') ~ '; a typed name is not accepted'}) }}
{% endmacro %}
