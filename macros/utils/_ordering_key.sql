{# How values sort for display: by ordinal where the column is ordered, else as text (NULL first). #}
{% macro _ordering_key(value, family) %}
  {% if value is none or value == 'NULL' %}{{ return([0, 0, '']) }}{% endif %}
  {% if family in ('date', 'integer') %}{{ return([1, dbt_backfill._partition_ordinal(value, family), '']) }}{% endif %}
  {{ return([1, 0, value | string]) }}
{% endmacro %}
