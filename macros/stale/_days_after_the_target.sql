{# The days after the target's last partition that an input windowed by day changed on since the earliest vouch
   (every such day it holds where nothing vouches yet), added to `candidates` with why, and to `windowing`: a
   partition the target lacks, built so the keys its rows hold are followed (_compare_following_keys). Reported
   stale only as a day a key moved to (find_stale): a new day is the live job's to publish. Only for a scan of
   every day (none named). Returns the days added, in order. #}
{% macro _days_after_the_target(looked_at, windowing, changes, thresholds, candidates) %}
  {% set added = [] %}
  {% if windowing.mode != 'windowed' or not looked_at.how.startswith('every day ') %}{{ return(added) }}{% endif %}
  {% set last = looked_at['values'][-1] %}
  {% for name, change in changes.items() if change.event_time %}
    {% for day, seen in change.days.items() if day > last and day not in candidates
          and (not thresholds or seen.after is not none or day in change.recounted) %}
      {% do candidates.update({day: [name ~ ' changed on ' ~ day ~ ', after the target\'s last partition (' ~ last ~ ')']}) %}
      {% do added.append(day) %}
      {% do dbt_backfill._window_of(windowing, day) %}
    {% endfor %}
  {% endfor %}
  {{ return(added | sort) }}
{% endmacro %}
