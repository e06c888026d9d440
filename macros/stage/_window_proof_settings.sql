{# The plan's settings of the proof, checked before anything is read: {max_age (days), prove_window}. #}
{% macro _window_proof_settings(max_age_days, prove_window) %}
  {% if prove_window is not none and prove_window != 'full' %}
    {% do dbt_backfill._fail('prove_window (--prove-window) takes one value, full: prove the input windows over the whole '
        ~ 'history in this plan, not ' ~ tojson(prove_window) ~ '. Nothing was changed.') %}
  {% endif %}
  {% set max_age = 30 if max_age_days is none else max_age_days %}
  {% if max_age is not integer or max_age is sameas true or max_age is sameas false or max_age < 0 %}
    {% do dbt_backfill._fail('meta.backfill.window_proof_max_age must be how many days a recorded proof of the input '
        ~ 'windows is relied on, a whole number >= 0 (0: prove on every plan; default 30), not ' ~ tojson(max_age_days)
        ~ '. Nothing was changed.') %}
  {% endif %}
  {{ return({'max_age': max_age, 'prove_window': prove_window}) }}
{% endmacro %}
