{#
  Who may approve a model's backfills (issue 55), declared where dbt users declare things: meta.backfill.approval,
  else the project's var `dbt_backfill_approval`, else none. {signers: [principals], required: N}: each signer a
  principal of the dbt project's allowed-signers file (`.dbt-backfill/allowed_signers`, git's format, so the file
  that signs commits can be guarded by CODEOWNERS); `required` distinct signers (default 1, at most as many as are
  named). Returns {declared, signers, required, said (in words, for the written plan)}. A model that declares
  nothing keeps the typed name, and the plan says so.
#}
{% macro _approval_policy(node) %}
  {% set meta = ((node.config.meta or {}).get('backfill') or (node.meta or {}).get('backfill') or {}) if node else {} %}
  {% set declared = meta.get('approval') if meta is mapping and meta.get('approval') is not none
                    else var('dbt_backfill_approval', none) %}
  {% set name = node.name if node else 'the model' %}
  {% if declared is none %}
    {{ return({'declared': false, 'signers': [], 'required': 0,
               'said': 'no approval policy is declared (meta.backfill.approval, var dbt_backfill_approval): any name '
                   ~ 'given to `approve --by` is accepted, and nothing proves who gave it'}) }}
  {% endif %}
  {% set signers = declared.get('signers') if declared is mapping else none %}
  {% set required = declared.get('required', 1) if declared is mapping else none %}
  {% if declared is not mapping or (declared.keys() | reject('in', ['signers', 'required']) | list)
        or signers is string or signers is not iterable or not signers or (signers | reject('string') | list)
        or required is not integer or required is sameas true or required is sameas false
        or required < 1 or required > signers | unique | list | length %}
    {% do dbt_backfill._fail('meta.backfill.approval of ' ~ name ~ ' must be {signers: [principals of the project\'s '
        ~ '.dbt-backfill/allowed_signers], required: N (1 by default, at most as many as are named)}, not '
        ~ tojson(declared) ~ '. Nothing was changed.') %}
  {% endif %}
  {{ return({'declared': true, 'signers': signers | unique | list, 'required': required,
             'said': required ~ ' approval(s) signed by the keys .dbt-backfill/allowed_signers lists for '
                 ~ signers | unique | join(', ') ~ ' (`dbt-backfill approve PACKET --sign KEY`); a typed name is not '
                 ~ 'accepted'}) }}
{% endmacro %}
