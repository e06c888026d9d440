{#
  Review the plan and write its document, into `plan`: the other runs over these partitions and what each did
  there (the ledger) and whether a protected model lacks its guard, for the review (check 3) only; the review
  (_review: the six checks and the verdict); nothing_to_change when every partition already holds exactly what its
  build gives (fingerprint and commitment) and nothing blocks: nothing to approve, so the callers write no packet
  and drop the stages; what it says of its columns (_column_notes: the excluded ones written unchecked, the
  run-level ones); and the written plan (_plan_markdown).
#}
{% macro _review_plan(plan, node, target_relation, run_id, partitions, commands) %}
  {% do dbt_backfill._step('reviewing the plan', 'reviewing the plan and writing its document failed (see the error '
      ~ 'below). No packet was written and the target is unchanged.') %}
  {% do plan.update({'other_runs': dbt_backfill._other_runs_over(dbt_backfill._partition_ledger(target_relation, partitions),
                                                                 run_id, partitions),
                     'protected_unguarded': dbt_backfill._protected_unguarded(node)}) %}
  {% do plan.update({'review': dbt_backfill._review(plan)}) %}
  {# who may approve, as the written plan names it (apply reads the policy afresh from the project) #}
  {% do plan.review.update({'approval_policy': dbt_backfill._approval_policy(node).said}) %}
  {# what approve and apply will say of a packet written for review only: its own record, read by both paths #}
  {% do plan.review.update({'refusal': dbt_backfill._packet_refusal(plan)}) %}
  {% do plan.pop('other_runs') %}{% do plan.pop('protected_unguarded') %}
  {% set differing = [] %}
  {% for p in plan.partitions if not (p.builds.a.sha256 == p.target_before.sha256 and p.commitment == p.target_before_commitment) %}
    {% do differing.append(p.value) %}
  {% endfor %}
  {% do plan.update({'nothing_to_change': not differing and plan.review.verdict != 'BLOCK'}) %}
  {% do plan.update({'column_notes': dbt_backfill._column_notes(plan)}) %}
  {% do plan.update({'markdown': dbt_backfill._plan_markdown(plan, commands)}) %}
{% endmacro %}

{# A model that declares meta.backfill.protected but has no full_refresh_guard() pre-hook: nothing stops a full
   refresh of it (the review says so, check 3). #}
{% macro _protected_unguarded(node) %}
  {% if node is none %}{{ return(false) }}{% endif %}
  {% set spec = dbt_backfill._meta_backfill(node) or {} %}
  {% set hooks = node.config.get('pre-hook') or node.config.get('pre_hook') or [] %}
  {% set guarded = [] %}
  {% for hook in hooks if 'full_refresh_guard' in (hook.sql if hook is mapping else hook | string) %}{% do guarded.append(hook) %}{% endfor %}
  {{ return(spec.get('protected') is true and not guarded) }}
{% endmacro %}
