{#
  The partitions to compare with the model, each with why: {value: [reasons]}. A partition is compared when nothing
  vouches for it (_vouched_partitions; or it no longer holds what its vouch saw: _check_vouch_basis), when an input that declares no change column reads into it (it may have
  changed anywhere), or when an input's rows changed after the partition's vouch inside the window its build reads
  (_input_changes: a change after that instant, or a day whose count of earlier rows moved: a deletion). An input
  the scan reads whole (no event_time, or a model that is not windowed) reaches every partition.
  `thresholds`: the ascending distinct vouch instants _input_changes indexed its `after` by.
#}
{% macro _stale_candidates(values, windowing, vouched, changes, thresholds, untracked) %}
  {% set candidates = {} %}
  {% for value in values %}
    {% set vouch = vouched.by_value.get(value) %}
    {% set reasons = [] %}
    {% if not vouch %}
      {# a recorded write never vouches (docs/DECISIONS.md row 108): its rows were built at its plan, by the code
         of then, or are the rows from before (a rollback); it is compared once #}
      {% set last = vouched.last_scan %}
      {% if value in (vouched.moved or {}) %}
        {% do reasons.append(vouched.moved[value]) %}
      {% elif value in vouched.written %}
        {% do reasons.append('a recorded run reached it since anything vouched for it (' ~ vouched.written[value] ~ '): compared once after it') %}
      {% elif last and value in last.stale %}
        {% do reasons.append('the stale scan of ' ~ last.at[:19] ~ ' UTC found it stale; nothing vouched for it since') %}
      {% else %}
        {% do reasons.append('no stale scan of this code or --since vouches for it') %}
      {% endif %}
    {% else %}
      {% set index = thresholds.index(vouch.at) %}
      {% for name in untracked %}{% do reasons.append(name ~ ' declares no changed_at') %}{% endfor %}
      {% for name, change in changes.items() %}
        {% set days = [] %}
        {% for day in (dbt_backfill._window_days(windowing.partitions[value]) if change.event_time else ['*']) %}
          {% set seen = change.days.get(day) %}
          {% if (seen and seen.after is not none and seen.after >= index) or day in change.recounted %}
            {% do days.append(day) %}
          {% endif %}
        {% endfor %}
        {% if days %}
          {% do reasons.append(name ~ ' changed' ~ (' on ' ~ dbt_backfill._range_items(days, 'date') | join(',') if change.event_time else '')
              ~ ' since ' ~ vouch.by) %}
        {% endif %}
      {% endfor %}
    {% endif %}
    {% if reasons %}{% do candidates.update({value: reasons}) %}{% endif %}
  {% endfor %}
  {{ return(candidates) }}
{% endmacro %}

{# The days of a window {start, end} (end excluded), as ISO dates. #}
{% macro _window_days(window) %}
  {% set start = modules.datetime.date.fromisoformat(window.start) %}
  {% set days = [] %}
  {% for n in range((modules.datetime.date.fromisoformat(window.end) - start).days) %}
    {% do days.append((start + modules.datetime.timedelta(days=n)).isoformat()) %}
  {% endfor %}
  {{ return(days) }}
{% endmacro %}
