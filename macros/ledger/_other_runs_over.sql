{#
  The other runs whose plans name any of `values`, each with the partitions it shares and what it did there, in
  words: applied (its rows are there now), rolled back, cleaned (its stages dropped: its packet can never apply),
  approved but not applied, planned and not approved (these two: open), or for review only (BLOCK). What a second
  plan over the same partitions tells its approver (the review's check 3).
#}
{% macro _other_runs_over(ledger, run_id, values) %}
  {% set others = [] %}
  {% for other_id, run in ledger.runs.items() if other_id != run_id and run.planned_at %}
    {% set shared = run.partitions | select('in', values) | list %}
    {% if shared %}
      {% set holding = [] %}
      {% set undone = [] %}
      {% for value in shared %}
        {% if other_id in (ledger.holders.get(value) or []) %}{% do holding.append(value) %}{% endif %}
        {% for write in ledger.writes.get(value) or [] if write.run_id == other_id and write.event == 'restored' %}
          {% do undone.append(write) %}
        {% endfor %}
      {% endfor %}
      {% if holding %}
        {% set state = 'applied: its rows are in ' ~ holding | join(', ') ~ ' now' %}
      {% elif undone %}
        {% set state = 'rolled back at ' ~ undone[-1].at ~ ' (by ' ~ (undone[-1].by or 'an unrecorded user') ~ ')' %}
      {% elif run.cleaned %}
        {% set state = 'cleaned at ' ~ run.cleaned.at ~ ' (by ' ~ (run.cleaned.by or 'an unrecorded user') ~ '): its stages are '
            ~ 'dropped, so its packet can no longer be applied' %}
      {% elif run.verdict == 'BLOCK' %}
        {% set state = 'judged BLOCK: for review only' %}
      {% elif run.approved_by %}
        {% set state = 'approved by ' ~ run.approved_by ~ ', not applied: open' %}
      {% else %}
        {% set state = 'no approval recorded, not applied: open' %}
      {% endif %}
      {% do others.append({'run_id': other_id, 'partitions': shared, 'state': state, 'planned_at': run.planned_at,
                           'said': 'run ' ~ other_id ~ ' (planned ' ~ run.planned_at ~ ', ' ~ shared | join(', ') ~ '): ' ~ state}) %}
    {% endif %}
  {% endfor %}
  {{ return(others | sort(attribute='planned_at')) }}
{% endmacro %}
