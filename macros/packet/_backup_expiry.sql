{# Why the backups the apply will take may be gone before a rollback within the approval's window (`expires_at`)
   needs them, as a sentence the review warns with; none when nothing removes them on its own (PostgreSQL, DuckDB and
   Spark's Hive and Iceberg tables keep a backup until clean drops it). Delta's leaf: replace/delta/_backup_expiry. #}
{% macro _backup_expiry(target_relation, layout, expires_at) %}
  {{ return((dbt_backfill._format_leaf('_backup_expiry', (layout or {}).get('provider')) or adapter.dispatch('_backup_expiry', 'dbt_backfill'))(target_relation, layout, expires_at)) }}
{% endmacro %}

{% macro default___backup_expiry(target_relation, layout, expires_at) %}
  {{ return(none) }}
{% endmacro %}
