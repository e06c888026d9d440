{# The target's rows outside the backfill: "(<partition column> is null or <partition column> not in (<named
   values>))", the column qualified by `alias` when given. A row whose partition value is NULL is outside every
   named partition, and its key counts like any other: `not in` alone would skip it (NULL not in (...) is NULL).
   Remembered for the invocation (_memo): apply asks it again for each partition, with every approved value. #}
{% macro _outside_partitions(scope, values, alias=none) %}
  {% set remembered = dbt_backfill._memo('outside_partitions') %}
  {% set key = [scope.partition_column.name, scope.partition_column.data_type, alias or ''] + (values | map('string') | list) %}
  {% set key = tojson(key) %}
  {% if key in remembered %}{{ return(remembered[key]) }}{% endif %}
  {% set literals = [] %}
  {% for value in values %}
    {% do literals.append('cast(' ~ dbt_backfill._sql_literal(value) ~ ' as ' ~ scope.partition_column.data_type ~ ')') %}
  {% endfor %}
  {% set column = ((alias ~ '.') if alias else '') ~ adapter.quote(scope.partition_column.name) %}
  {% do remembered.update({key: '(' ~ column ~ ' is null or ' ~ column ~ ' not in (' ~ literals | join(', ') ~ '))'}) %}
  {{ return(remembered[key]) }}
{% endmacro %}
