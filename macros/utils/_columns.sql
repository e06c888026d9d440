{#
  The named columns of a relation, as the relation itself declares them, in the order the names are given.
  Names match case-insensitively (PostgreSQL folds unquoted names to lower case, YAML keeps what was typed).
  Raises naming the missing columns. The rule is _columns_each's.
#}
{% macro _columns(relation, names, purpose) %}
  {{ return(dbt_backfill._columns_each(relation, [(names, purpose)])[0]) }}
{% endmacro %}
