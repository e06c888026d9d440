{# The statement of the canonical fingerprint (fingerprint_relation's header): one row of totals over the rows of
   `relation` that `where` selects, or, with `group_column`, one row per value of that column, the value as text
   (cast as the column's own type round-trips a partition value: _check_partition_values) in `bf_partition`. The
   same expressions either way, so a partition's digest is the same read alone or grouped (_fingerprints_in_scope). #}
{% macro _fingerprint_sql(relation, columns, key_columns, additive_columns, where, group_column=none) %}
  {% set label = ('cast(' ~ adapter.quote(group_column.name) ~ ' as ' ~ dbt.type_string() ~ ')') if group_column else none %}
  {{ return(dbt_backfill._fingerprint_totals_sql(
      dbt_backfill._fingerprint_rows_sql(relation, columns, key_columns, additive_columns, where, label),
      additive_columns | length, label is not none)) }}
{% endmacro %}
