{# _check_sources for one relation: the check inside a partition's transaction, of the relation it is about to read #}
{% macro _check_source(source_relation, target_relation, source_as, partition_value, unchanged_clause) %}
  {% do dbt_backfill._check_sources([source_relation], target_relation, source_as, [partition_value], unchanged_clause) %}
{% endmacro %}
