{# One relation's (or one partition's) part of a commitment statement: {relation, columns (names), row_digest, where,
   row_count, k, label}; `label` (SQL), given, names its group where one statement commits to several
   (_commitments_in_scope). #}
{% macro _commitment_branch(relation, columns, where, row_count, label=none) %}
  {% set digits = [0] %}
  {% for _ in range(4) if row_count > 4096 * 16 ** digits[0] %}{% do digits.append(digits.pop() + 1) %}{% endfor %}
  {{ return({'relation': relation, 'columns': columns | map(attribute='name') | list,
             'row_digest': dbt_backfill._row_digest_of_columns(columns), 'where': where,
             'row_count': row_count, 'k': digits[0], 'label': label}) }}
{% endmacro %}
