{# Commit the operation's transaction. adapter.commit() raises when dbt has no transaction open (e.g. nothing ran
   since the last commit); a no-op statement opens one first, so callers need not track that state. #}
{% macro _commit() %}
  {% do dbt_backfill._execute('select 1', fetch=false) %}
  {% do adapter.commit() %}
{% endmacro %}
