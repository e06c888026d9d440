{# Whether the watermark moved from `before` to `now`: a column watermark when its maximum rose (compared in the
   column's own type), a state table or query when it reads differently at all. #}
{% macro _watermark_moved(target_relation, before, now) %}
  {% if before.kind != 'column' %}
    {{ return(now.value != before.value) }}
  {% endif %}
  {% if now.value is none %}
    {{ return(false) }}
  {% elif before.value is none %}
    {{ return(true) }}
  {% endif %}
  {% set column = dbt_backfill._columns(target_relation, [before.column], 'watermark column')[0] %}
  {% set query %}
    select case when cast({{ dbt_backfill._sql_literal(now.value) }} as {{ column.data_type }})
                   > cast({{ dbt_backfill._sql_literal(before.value) }} as {{ column.data_type }})
                then 'raised' else 'kept' end as bf_verdict
  {% endset %}
  {{ return(dbt_backfill._execute(query).rows[0]['bf_verdict'] == 'raised') }}
{% endmacro %}
