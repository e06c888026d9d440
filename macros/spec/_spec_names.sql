{# A column name, a comma-separated string of them, or a list of names: as a list (none: empty). #}
{% macro _spec_names(value, field, model) %}
  {% if value is none %}{{ return([]) }}{% endif %}
  {% set names = value.split(',') | map('trim') | list if value is string else value %}
  {% if names is string or names is mapping or names is not iterable
        or (names | reject('string') | list) or (names | reject | list) %}
    {% do dbt_backfill._fail('meta.backfill.' ~ field ~ ' of ' ~ model ~ ' must be a column name or a list of column '
        ~ 'names, not ' ~ tojson(value) ~ '. Nothing was changed.') %}
  {% endif %}
  {{ return(names | list) }}
{% endmacro %}
