{# A Delta table's commits, newest first, as {version, read_version, operation, user_metadata} (DESCRIBE HISTORY:
   Delta's own log, the one record of which snapshot each commit read). `limit`: the newest so many. #}
{% macro _delta_history(relation, limit=none) %}
  {% set rows = dbt_backfill._execute('describe history ' ~ relation ~ ((' limit ' ~ limit) if limit else '')).rows %}
  {% set commits = [] %}
  {% for row in rows %}
    {% do commits.append({'version': row['version'] | int, 'read_version': row['readVersion'],
                          'operation': row['operation'], 'user_metadata': row['userMetadata']}) %}
  {% endfor %}
  {{ return(commits) }}
{% endmacro %}
