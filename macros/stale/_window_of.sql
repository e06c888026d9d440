{# Gives `windowing` (when windowed) the window of `value` where it has none: a partition compared beyond the scope
   the windows were made for (a day after the target's last, or one that holds a moved key). #}
{% macro _window_of(windowing, value) %}
  {% if windowing.mode == 'windowed' and value not in windowing.partitions %}
    {% do windowing.partitions.update({value: dbt_backfill._day_span(modules.datetime.date.fromisoformat(value | string),
                                                                       windowing.before, windowing.after)}) %}
  {% endif %}
{% endmacro %}
