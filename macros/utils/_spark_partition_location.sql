{# The directory partition {column, value} of `relation` reads, as the catalog names it; none when the table has no
   such partition. #}
{% macro _spark_partition_location(relation, partition) %}
  {% set found = dbt_backfill._execute('show partitions ' ~ relation ~ ' ' ~ dbt_backfill._spark_partition_spec(partition)).rows %}
  {% if not found %}{{ return(none) }}{% endif %}
  {% for row in dbt_backfill._execute('describe table extended ' ~ relation ~ ' ' ~ dbt_backfill._spark_partition_spec(partition)).rows %}
    {% if (row[0] or '') | trim == 'Location' %}{{ return((row[1] or '') | trim) }}{% endif %}
  {% endfor %}
  {{ return(none) }}
{% endmacro %}
