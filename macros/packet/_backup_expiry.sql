{# Why the backups the apply will take may be gone before a rollback within the approval's window (`expires_at`)
   needs them, as a sentence the review warns with; none when nothing removes them on its own (PostgreSQL, DuckDB and
   Spark's Hive tables keep a backup until clean drops it). Delta: _delta_backup_expiry. #}
{% macro _backup_expiry(target_relation, layout, expires_at) %}
  {% if (layout.get('provider') or '') | lower == 'delta' %}
    {{ return(dbt_backfill._delta_backup_expiry(target_relation, expires_at)) }}
  {% endif %}
  {{ return(none) }}
{% endmacro %}
