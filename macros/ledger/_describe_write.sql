{# "run <id> (approved by <who>[; proven by <key or login>]) replaced it at <time>" and the like: one write of the ledger, in words. #}
{% macro _describe_write(write) %}
  {% if write.event == 'full_refresh' %}
    {{ return('a full refresh by ' ~ (write.by or 'an unrecorded user') ~ ' rebuilt it at ' ~ write.at
              ~ (' ("' ~ write.reason ~ '")' if write.reason else '')) }}
  {% endif %}
  {% set did = {'replaced': 'replaced it at ' ~ write.at,
                'adopted': 'found it already holding its approved rows at ' ~ write.at ~ ' and took it as its own',
                'released': 'was rolled back at ' ~ write.at ~ ' (by ' ~ (write.by or 'an unrecorded user') ~ ') with nothing of its own to undo there'}
      .get(write.event, 'rolled it back at ' ~ write.at ~ ' (by ' ~ (write.by or 'an unrecorded user') ~ ')') %}
  {# how the approval was proven, where something proves it (_approval_proof); a typed name is the name alone #}
  {{ return('run ' ~ write.run_id ~ ' (approved by ' ~ (write.approved_by or 'an unrecorded approver')
            ~ ('; proven by ' ~ write.approval_proof if write.get('approval_proof') else '') ~ ') ' ~ did) }}
{% endmacro %}
