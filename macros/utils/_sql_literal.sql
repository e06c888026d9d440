{# A user-supplied value as SQL text: _sql_literals' rule, for one value. #}
{% macro _sql_literal(value) %}
  {%- if value is none -%}
    {{ return('null') }}
  {%- endif -%}
  {{ return(adapter.dispatch('_sql_literals', 'dbt_backfill')([value | string])[0]) }}
{% endmacro %}
