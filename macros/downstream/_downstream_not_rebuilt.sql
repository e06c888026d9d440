{#
  What an apply leaves downstream: the tables downstream of the repaired model (`downstream`, the packet's list
  from its plan, topological order) that read the partitions the apply changed — those whose approved rows differ
  from the rows the plan found there (every column: the commitments). A view or an ephemeral model reads its
  parents when queried and is not named. Only an apply without a cascade leaves them; both paths say so with what
  this returns: {models, changed, said}, models empty (said none) when nothing changed.
#}
{% macro _downstream_not_rebuilt(downstream, partitions) %}
  {% set changed = [] %}
  {% for p in partitions if p.commitment != p.target_before_commitment %}{% do changed.append(p.value | string) %}{% endfor %}
  {% set models = [] %}
  {% for d in downstream or [] if changed and d.mapping not in ('view', 'ephemeral') %}{% do models.append(d.model) %}{% endfor %}
  {% set said = 'Not rebuilt: ' ~ models | join(', ') ~ ' (downstream; reading the partition(s) this apply changed: '
      ~ changed | join(', ') ~ '): this apply did not rebuild ' ~ ('it, so it' if models | length == 1 else 'them, so they')
      ~ ' may now differ from ' ~ ('its' if models | length == 1 else 'their') ~ ' build.' if models else none %}
  {{ return({'models': models, 'changed': changed, 'said': said}) }}
{% endmacro %}
