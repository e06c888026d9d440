{#
  _columns for several lists of names of one relation, in one call: `wanted` is [(names, purpose), ...]; returns a
  list of columns for each, in order. The relation's columns are matched by name once, not once a list (a
  fingerprint's scope asks for four lists, hundreds of times in a plan or apply of 100 partitions: issue 57).
#}
{% macro _columns_each(relation, wanted) %}
  {% set by_name = {} %}
  {% for column in dbt_backfill._relation_columns(relation) %}
    {% do by_name.update({column.name | lower: column}) %}
  {% endfor %}
  {% set lists = [] %}
  {% for names, purpose in wanted %}
    {% set found, missing = [], [] %}
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
    {% do lists.append(found) %}
  {% endfor %}
  {{ return(lists) }}
{% endmacro %}
