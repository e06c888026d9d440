{# The conversion goals the network reports; one pair of columns each in the campaign report. #}
{% macro conversion_goals() %}
  {{ return(['purchase', 'signup', 'lead']) }}
{% endmacro %}

{# A pivoted column's name: <goal>_<measure>. #}
{% macro goal_column(goal, measure) %}
  {{- return(goal ~ '_' ~ measure) -}}
{% endmacro %}

{#
  The conversions report pivoted into one column per goal and measure (conversions, value). Calls the package's own
  macros unqualified, as a package does: dbt resolves them in this package's namespace.
#}
{% macro pivot_goals(relation_alias) %}
  {%- for goal in conversion_goals() %}
    sum(case when {{ relation_alias }}.goal = '{{ goal }}' then {{ relation_alias }}.conversions else 0 end)
      as {{ goal_column(goal, 'conversions') }},
    cast(sum(case when {{ relation_alias }}.goal = '{{ goal }}' then {{ relation_alias }}.value else 0 end)
      as double precision) as {{ goal_column(goal, 'value') }}{{ ',' if not loop.last }}
  {%- endfor %}
{% endmacro %}
