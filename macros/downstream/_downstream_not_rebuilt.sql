{#
  What an apply leaves downstream: the tables downstream of the repaired model (`downstream`, the packet's list
  from its plan, topological order) that read the partitions the apply changed — those whose approved rows differ
  from the rows the plan found there (every column: the commitments). A view or an ephemeral model reads its
  parents when queried and is not named. Only an apply without a cascade leaves them; both paths say so with what
  this returns: {models, changed, said, next_in_dbt}, models empty (said none) when nothing changed. Pure dbt
  prints `next_in_dbt` after `said`: the find_stale scan of each.
#}
{% macro _downstream_not_rebuilt(downstream, partitions) %}
  {% set changed = [] %}
  {% for p in partitions if p.commitment != p.target_before_commitment %}{% do changed.append(p.value | string) %}{% endfor %}
  {% set models = [] %}
  {% for d in downstream or [] if changed and d.mapping not in ('view', 'ephemeral') %}{% do models.append(d.model) %}{% endfor %}
  {% set said = 'Not rebuilt: ' ~ models | join(', ') ~ ' (downstream; reading the partition(s) this apply changed: '
      ~ changed | join(', ') ~ '): this apply did not rebuild ' ~ ('it, so it' if models | length == 1 else 'them, so they')
      ~ ' may now differ from ' ~ ('its' if models | length == 1 else 'their') ~ ' build.' if models else none %}
  {# pure dbt has no cascade (the CLI names `apply --cascade` instead): for a model with a partition column of its
     own, the scan that names what differs and the plan that repairs it; for one without, the dbt run that rebuilds
     it, as the cascade's comparison names it; a command a line (a full stop after one would be copied with it) #}
  {% set steps = [] %}
  {% for d in downstream or [] if d.model in models %}
    {% if d.mapping == 'same_partitions' or d.partition_by %}
      {% do steps.append("dbt run-operation dbt_backfill.find_stale --args '{model: " ~ d.model ~ "}'"
                         ~ dbt_backfill._invocation_flags()) %}
    {% else %}
      {% do steps.append('dbt run --select ' ~ d.model ~ ('' if d.materialized == 'table' else ' --full-refresh')
                         ~ dbt_backfill._invocation_flags()) %}
    {% endif %}
  {% endfor %}
  {% set next_in_dbt = 'In this order, find what differs in each and the plan that repairs it (find_stale), or rebuild '
      ~ 'whole one that declares no meta.backfill partition_by:\n  ' ~ steps | join('\n  ') if steps else none %}
  {{ return({'models': models, 'changed': changed, 'said': said, 'next_in_dbt': next_in_dbt}) }}
{% endmacro %}
