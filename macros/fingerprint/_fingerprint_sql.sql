{# The statement of the canonical fingerprint (fingerprint_relation's header): one row of totals over the rows of
   `relation` that `where` selects, or, with `group_column`, one row per value of that column, the value as text
   (cast as the column's own type round-trips a partition value: _check_partition_values) in `bf_partition`. The
   same expressions either way, so a partition's digest is the same read alone or grouped (_fingerprints_in_scope). #}
{% macro _fingerprint_sql(relation, columns, key_columns, additive_columns, where, group_column=none) %}
  {% set string_type = dbt.type_string() %}
  {% set row_fields = [] %}
  {% for column in columns %}{% do row_fields.append(dbt_backfill.canonical_text(column.name, column.data_type)) %}{% endfor %}
  {% set null_key_tests = [] %}
  {% for column in key_columns %}{% do null_key_tests.append(adapter.quote(column.name) ~ ' is null') %}{% endfor %}
  {% set sql %}
    select bf_totals.*, {{ dbt_backfill.sha256_hex('bf_summary') }} as partition_digest
    from (
      select
        {% if group_column %}bf_partition,{% endif %}
        {{ dbt_backfill._rows_summary('bf_row_digest') }} as bf_summary,
        cast(count(*) as {{ string_type }}) as row_count,
        cast(count(case when bf_null_key then 1 end) as {{ string_type }}) as null_keys
        {% for column in additive_columns %}
        , cast(coalesce(sum(bf_additive_{{ loop.index }}), 0) as {{ string_type }}) as total_{{ loop.index }}
        , cast(sum(case when bf_inexact_{{ loop.index }} then 1 else 0 end) as {{ string_type }}) as inexact_{{ loop.index }}
        {% endfor %}
      from (
        select
          {% if group_column %}cast({{ adapter.quote(group_column.name) }} as {{ string_type }}) as bf_partition,{% endif %}
          {{ dbt_backfill._row_digest(row_fields) }} as bf_row_digest,
          {{ '(' ~ null_key_tests | join(' or ') ~ ')' if key_columns else 'false' }} as bf_null_key
          {% for column in additive_columns %}
          {% set value, inexact = dbt_backfill._additive_value(column) %}
          , {{ value }} as bf_additive_{{ loop.index }}, {{ inexact }} as bf_inexact_{{ loop.index }}
          {% endfor %}
        from {{ relation }}
        {% if where %}where {{ where }}{% endif %}
      ) bf_rows
      {% if group_column %}group by bf_partition{% endif %}
    ) bf_totals
  {% endset %}
  {{ return(sql) }}
{% endmacro %}
