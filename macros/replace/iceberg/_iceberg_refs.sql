{# The Iceberg table's refs as its current metadata has them now, {name: {type, snapshot_id}} (main, the run's
   branches and tags). REFRESH TABLE first: Iceberg's Spark catalog caches a loaded table per session (its
   `cache-enabled`, on by default, for up to 30 s), and a commit by another session — the scheduled run's — would
   not be seen through that copy. #}
{% macro _iceberg_refs(target_relation) %}
  {% do dbt_backfill._execute('refresh table ' ~ target_relation, fetch=false) %}
  {% set refs = {} %}
  {% for row in dbt_backfill._execute('select name, type, snapshot_id from ' ~ target_relation ~ '.refs').rows %}
    {% do refs.update({row[0]: {'type': row[1], 'snapshot_id': row[2]}}) %}
  {% endfor %}
  {{ return(refs) }}
{% endmacro %}
