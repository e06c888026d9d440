{# Each partition once: a repeat would be replaced twice in one apply. Counted in one pass (a map), never the square
   of the values. #}
{% macro _refuse_repeated_partitions(values) %}
  {% set seen, repeated = {}, {} %}
  {% for value in values %}
    {% if value in seen %}{% do repeated.update({value: true}) %}{% endif %}
    {% do seen.update({value: true}) %}
  {% endfor %}
  {% if repeated %}
    {% set names = repeated.keys() | sort %}
    {% do dbt_backfill._fail('partition(s) ' ~ names[:20] | map('tojson') | join(', ')
        ~ (' and ' ~ (names | length - 20) ~ ' more' if names | length > 20 else '') ~ ' named more than once. '
        ~ 'Nothing was changed.') %}
  {% endif %}
{% endmacro %}
