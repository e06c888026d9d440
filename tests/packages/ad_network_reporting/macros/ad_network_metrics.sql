{# The metric columns of the impressions report and their types, summed to campaign-day and account-day. #}
{% macro ad_network_metrics() %}
  {{ return([
      {'name': 'spend', 'type': 'double precision'},
      {'name': 'clicks', 'type': 'bigint'},
      {'name': 'impressions', 'type': 'bigint'},
  ]) }}
{% endmacro %}

{# The metrics summed over the rows of `relation_alias`, each cast to its type. #}
{% macro sum_metrics(relation_alias) %}
  {%- for metric in ad_network_metrics() %}
    cast(sum({{ relation_alias }}.{{ metric.name }}) as {{ metric.type }}) as {{ metric.name }},
  {%- endfor %}
{% endmacro %}
