{# The fares of a day, as daily_fares sums them: a macro a downstream model calls, so a cascade test can change
   the model's compiled SQL without touching its file. #}
{% macro fares_total(column) %}sum({{ column }}){% endmacro %}
