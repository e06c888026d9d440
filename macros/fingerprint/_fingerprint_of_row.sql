{# A row of _fingerprint_sql as the fingerprint fingerprint_relation returns: {row_count, null_keys, duplicate_keys,
   totals, sha256, algorithm}; algorithm dbt_backfill/v3, or dbt_backfill/v3+float,other:postgres when a column's
   text is the engine's own. #}
{% macro _fingerprint_of_row(row, columns, additive_columns, duplicate_keys) %}
  {% set algorithm = dbt_backfill._fingerprint_algorithm(columns) %}
  {{ return({
      'row_count': row['row_count'] | int,
      'null_keys': row['null_keys'] | int,
      'duplicate_keys': duplicate_keys,
      'totals': dbt_backfill._exact_totals(row, additive_columns),
      'sha256': row['partition_digest'] | string,
      'algorithm': algorithm,
  }) }}
{% endmacro %}

{# The algorithm's name for `columns`: dbt_backfill/v3, with the engine-specific families it reads (_type_family)
   and the engine. Remembered by the columns' types for the invocation (_memo): a plan or apply names it for every
   fingerprint it reads. #}
{% macro _fingerprint_algorithm(columns) %}
  {% set remembered = dbt_backfill._memo('fingerprint_algorithm') %}
  {% set key = columns | map(attribute='data_type') | join('\x1f') %}
  {% if key in remembered %}{{ return(remembered[key]) }}{% endif %}
  {% set specific_families = dbt_backfill._engine_specific_families() %}
  {% set engine_specific = [] %}
  {% for column in columns %}
    {% set family = dbt_backfill._type_family(column.data_type) %}
    {% if family in specific_families and family not in engine_specific %}
      {% do engine_specific.append(family) %}
    {% endif %}
  {% endfor %}
  {% do remembered.update({key: 'dbt_backfill/v3' ~ (('+' ~ (engine_specific | sort | join(',')) ~ ':' ~ adapter.type())
                                                       if engine_specific else '')}) %}
  {{ return(remembered[key]) }}
{% endmacro %}
