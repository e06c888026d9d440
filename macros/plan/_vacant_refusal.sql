{# A partition with no rows in the target and none in the build: nothing to repair there, and most often a value in
   the wrong format. The refusal's words for `values` (or, given a `plan`, its partitions whose builds and target
   both hold no rows), or none: both paths refuse with them before any packet is written (_named_partitions, before
   anything is built; plan_stages' result and plan_backfill, after), each then saying what became of its stages. #}
{% macro _vacant_refusal(values=none, plan=none) %}
  {% set vacant = values if values is not none else [] %}
  {% for p in (plan.partitions if plan is not none else []) %}
    {% if p.builds.a.row_count == 0 and p.target_before.row_count == 0 %}{% do vacant.append(p.value) %}{% endif %}
  {% endfor %}
  {{ return(('partition(s) ' ~ vacant[:20] | join(', ') ~ (' and ' ~ (vacant | length - 20) ~ ' more'
      if vacant | length > 20 else '') ~ ' hold no rows in the target and none in the model\'s output: there is '
      ~ 'nothing to repair. Check the values (and their format). No packet was written and the target is unchanged.')
      if vacant else none) }}
{% endmacro %}
