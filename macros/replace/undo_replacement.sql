{#
  Undo a replacement that a check refused before it was committed, and say how, in a clause the refusal quotes.
  PostgreSQL and DuckDB: the refusal rolls the partition's transaction back; nothing to do here.
  Engines without multi-statement transactions restore the partition from its backup.
#}
{% macro undo_replacement(target_relation, backup_relation, scope, partition_value, target_columns) %}
  {{ return((dbt_backfill._format_leaf('undo_replacement', dbt_backfill._write_unit(scope, partition_value).format) or adapter.dispatch('undo_replacement', 'dbt_backfill'))(target_relation, backup_relation, scope, partition_value, target_columns)) }}
{% endmacro %}

{% macro default__undo_replacement(target_relation, backup_relation, scope, partition_value, target_columns) %}
  {{ exceptions.raise_compiler_error("dbt_backfill.undo_replacement is not implemented for " ~ adapter.type()) }}
{% endmacro %}

{% macro postgres__undo_replacement(target_relation, backup_relation, scope, partition_value, target_columns) %}
  {{ return('its transaction was rolled back') }}
{% endmacro %}

{% macro duckdb__undo_replacement(target_relation, backup_relation, scope, partition_value, target_columns) %}
  {{ return('its transaction was rolled back') }}
{% endmacro %}

{# Spark: the swap is already visible; pointing the partition back at the directory its backup names (the old one,
   untouched) is the undo, again one catalog operation. #}
{% macro spark__undo_replacement(target_relation, backup_relation, scope, partition_value, target_columns) %}
  {% if backup_relation is none %}
    {{ return('Spark has no transaction to roll back and this step keeps no backup: the partition holds what was just written') }}
  {% endif %}
  {% do dbt_backfill.replace_partition(target_relation, backup_relation,
      dbt_backfill._partition_predicate(scope.partition_column, partition_value), target_columns,
      dbt_backfill._write_unit(scope, partition_value)) %}
  {{ return('Spark has no transaction to roll back, so the partition was pointed back at its old directory, which its backup '
            ~ dbt_backfill._relation_name(backup_relation) ~ ' names') }}
{% endmacro %}
