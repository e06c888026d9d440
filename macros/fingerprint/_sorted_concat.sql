{# An aggregate: the group's values of a text expression, sorted by their bytes, joined by `separator` (a constant). #}
{% macro _sorted_concat(expression, separator) %}
  {{ return(adapter.dispatch('_sorted_concat', 'dbt_backfill')(expression, separator)) }}
{% endmacro %}

{% macro default___sorted_concat(expression, separator) %}
  {{ return("string_agg(" ~ expression ~ ", '" ~ separator ~ "' order by " ~ expression ~ ")") }}
{% endmacro %}

{# PostgreSQL: the C collation, so the order is the bytes' whatever the database's collation. #}
{% macro postgres___sorted_concat(expression, separator) %}
  {{ return("pg_catalog.string_agg(" ~ expression ~ ", '" ~ separator ~ "' order by " ~ expression ~ " collate \"C\")") }}
{% endmacro %}

{% macro spark___sorted_concat(expression, separator) %}
  {{ return("concat_ws('" ~ separator ~ "', array_sort(collect_list(" ~ expression ~ ")))") }}
{% endmacro %}
