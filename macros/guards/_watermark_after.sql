{# The column watermark the target would have after the backfill: the maximum over the target's rows outside the
   named partitions and every stage, compared with today's in the database's own type. #}
{% macro _watermark_after(watermark_column, target_relation, stages, scope) %}
  {% set string_type = dbt.type_string() %}
  {% set column = adapter.quote(watermark_column) %}
  {% set values = [] %}
  {% for stage in stages %}{% do values.append(stage.value) %}{% endfor %}
  {% set query %}
    with after_rows as (
      select {{ column }} as bf_value from {{ target_relation }} where {{ dbt_backfill._outside_partitions(scope, values) }}
      {% for stage in stages %} union all select {{ column }} from {{ stage.relation }}{% endfor %}
    ),
    before_max as (select max({{ column }}) as bf_max from {{ target_relation }}),
    after_max as (select max(bf_value) as bf_max from after_rows)
    select cast(a.bf_max as {{ string_type }}) as bf_after,
           case when a.bf_max > b.bf_max or (b.bf_max is null and a.bf_max is not null) then 'raised' else 'kept' end as bf_verdict
    from after_max a cross join before_max b
  {% endset %}
  {% set row = dbt_backfill._execute(query).rows[0] %}
  {{ return({'value': row['bf_after'], 'raised': row['bf_verdict'] == 'raised'}) }}
{% endmacro %}
