{#
  The named columns of a relation, as the relation itself declares them, in the order the names are given.
  Names match case-insensitively (PostgreSQL folds unquoted names to lower case, YAML keeps what was typed).
  Raises naming the missing columns.
#}
{% macro _columns(relation, names, purpose) %}
  {% set by_name = {} %}
  {% for column in dbt_backfill._relation_columns(relation) %}
    {% do by_name.update({column.name | lower: column}) %}
  {% endfor %}
  {% set found = [] %}
  {% set missing = [] %}
  {% for name in names %}
    {% if (name | lower) in by_name %}
      {% do found.append(by_name[name | lower]) %}
    {% else %}
      {% do missing.append(name) %}
    {% endif %}
  {% endfor %}
  {% if missing %}
    {% do dbt_backfill._fail(dbt_backfill._relation_name(relation) ~ " has no column " ~ (missing | join(', '))
        ~ " (named as " ~ purpose ~ "). Nothing was changed.") %}
  {% endif %}
  {{ return(found) }}
{% endmacro %}
