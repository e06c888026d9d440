{# After the restores: the runs of _downstream_still_applied on the partitions `restored` (a partition left as it was
   took nothing away), and the words both paths print: {runs, said (none when none), unread (the models whose
   audit trail was not read)}, each command on a line of its own. #}
{% macro _still_applied_after(candidates, restored) %}
  {% set restored = restored | map('string') | list %}
  {% set runs, unread = [], [] %}
  {% for run in candidates if run['values'] | select('in', restored) | list %}
    {% do (unread if run.get('unread') else runs).append(dbt_backfill._merged(run,
        {'values': run['values'] | select('in', restored) | list})) %}
  {% endfor %}
  {% set each = [] %}
  {% for run in runs %}{% do each.append(run.model ~ ' holds run ' ~ run.run_id ~ ' on ' ~ run['values'] | join(', ')) %}{% endfor %}
  {% set lines = ['Still applied downstream: ' ~ each | join('; ') ~ ' (written after this run, from the rows this '
      ~ 'rollback replaced). Roll ' ~ ('it' if runs | length == 1 else 'them') ~ ' back too:\n  '
      ~ runs | map(attribute='command') | join('\n  ')] if runs else [] %}
  {% for model in unread %}
    {% do lines.append('Not read downstream: the audit trail of ' ~ model.model ~ ' (' ~ model.unread ~ '), so whether a '
        ~ 'run of it holds rows built from what this rollback replaced is not known here') %}
  {% endfor %}
  {{ return({'runs': runs, 'said': lines | join('\n') or none, 'unread': unread | map(attribute='model') | list}) }}
{% endmacro %}
