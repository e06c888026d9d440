{# A row of _fingerprint_sql as the fingerprint fingerprint_relation returns: {row_count, null_keys, duplicate_keys,
   totals, sha256, algorithm}; algorithm dbt_backfill/v3, or dbt_backfill/v3+float,other:postgres when a column's
   text is the engine's own. #}
{% macro _fingerprint_of_row(row, columns, additive_columns, duplicate_keys) %}
  {% set engine_specific = [] %}
  {% for column in columns %}
    {% set family = dbt_backfill._type_family(column.data_type) %}
    {% if family in dbt_backfill._engine_specific_families() and family not in engine_specific %}
      {% do engine_specific.append(family) %}
    {% endif %}
  {% endfor %}
  {% set algorithm = 'dbt_backfill/v3' ~ (('+' ~ (engine_specific | sort | join(',')) ~ ':' ~ adapter.type()) if engine_specific else '') %}
  {{ return({
      'row_count': row['row_count'] | int,
      'null_keys': row['null_keys'] | int,
      'duplicate_keys': duplicate_keys,
      'totals': dbt_backfill._exact_totals(row, additive_columns),
      'sha256': row['partition_digest'] | string,
      'algorithm': algorithm,
  }) }}
{% endmacro %}
