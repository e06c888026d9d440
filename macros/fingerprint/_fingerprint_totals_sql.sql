{# The totals over `rows_sql` (_fingerprint_rows_sql, or several of them in a union): one row, or with `grouped`
   one per `bf_partition`. #}
{% macro _fingerprint_totals_sql(rows_sql, additive_count, grouped) %}
  {% set string_type = dbt.type_string() %}
  {% set sql %}
    select bf_totals.*, {{ dbt_backfill.sha256_hex('bf_summary') }} as partition_digest
    from (
      select
        {% if grouped %}bf_partition,{% endif %}
        {{ dbt_backfill._rows_summary('bf_row_digest') }} as bf_summary,
        cast(count(*) as {{ string_type }}) as row_count,
        cast(count(case when bf_null_key then 1 end) as {{ string_type }}) as null_keys
        {% for index in range(1, additive_count + 1) %}
        , cast(coalesce(sum(bf_additive_{{ index }}), 0) as {{ string_type }}) as total_{{ index }}
        , cast(sum(case when bf_inexact_{{ index }} then 1 else 0 end) as {{ string_type }}) as inexact_{{ index }}
        {% endfor %}
      from ({{ rows_sql }}) bf_rows
      {% if grouped %}group by bf_partition{% endif %}
    ) bf_totals
  {% endset %}
  {{ return(sql) }}
{% endmacro %}
