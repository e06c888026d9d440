{# The rows a fingerprint sums, one per row of `relation` that `where` selects: its digest, whether its key is null,
   each additive column's value; with `label` (an SQL expression), that too, as `bf_partition`. #}
{% macro _fingerprint_rows_sql(relation, columns, key_columns, additive_columns, where, label=none) %}
  {% set null_key_tests = [] %}
  {% for column in key_columns %}{% do null_key_tests.append(adapter.quote(column.name) ~ ' is null') %}{% endfor %}
  {% set sql %}
        select
          {% if label %}{{ label }} as bf_partition,{% endif %}
          {{ dbt_backfill._row_digest_of_columns(columns) }} as bf_row_digest,
          {{ '(' ~ null_key_tests | join(' or ') ~ ')' if key_columns else 'false' }} as bf_null_key
          {% for column in additive_columns %}
          {% set value, inexact = dbt_backfill._additive_value(column) %}
          , {{ value }} as bf_additive_{{ loop.index }}, {{ inexact }} as bf_inexact_{{ loop.index }}
          {% endfor %}
        from {{ relation }}
        {% if where %}where {{ where }}{% endif %}
  {% endset %}
  {{ return(sql) }}
{% endmacro %}
