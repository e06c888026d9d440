{# The model's SQL with the `recast` columns ({name: type}) cast to those types, every other column as it is. #}
{% macro _as_target_types(model_sql, recast, names) %}
  {% if not recast %}{{ return(model_sql) }}{% endif %}
  {% set selected = [] %}
  {% for name in names %}
    {% if name in recast %}
      {% do selected.append('cast(' ~ adapter.quote(name) ~ ' as ' ~ recast[name] ~ ') as ' ~ adapter.quote(name)) %}
    {% else %}
      {% do selected.append(adapter.quote(name)) %}
    {% endif %}
  {% endfor %}
  {{ return('select ' ~ selected | join(', ') ~ '\nfrom (\n' ~ dbt_backfill._strip_statement_end(model_sql) ~ ') as bf_as_target\n') }}
{% endmacro %}
