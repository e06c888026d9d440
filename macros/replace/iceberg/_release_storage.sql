{# Before clean drops a run's relation on an Iceberg target: the refs the run made on the target for it go with it —
   the branch `<relation>_w` (a killed apply or rollback leaves one: iceberg___rows_to_write) and, for the backup,
   the tag `<relation>` that kept the snapshot before (iceberg__backup_partition). Clean drops a backup only when
   no rollback needs it (_refuse_needed_backups) or when told to. Returns {deleted, kept} as _release_storage:
   Iceberg frees no directory itself (expire_snapshots does, later, once no ref keeps the files). #}
{% macro iceberg___release_storage(relation, target_relation, unit, list_only=false) %}
  {% if not list_only and adapter.get_relation(database=target_relation.database, schema=target_relation.schema,
                                               identifier=target_relation.identifier) is not none %}
    {% set refs = dbt_backfill._iceberg_refs(target_relation) %}
    {% for name, ref in refs.items() if name in (relation.identifier ~ '_w', relation.identifier) and name != 'main' %}
      {% do dbt_backfill._execute('alter table ' ~ target_relation ~ ' drop ' ~ ('tag' if ref.type == 'TAG' else 'branch')
          ~ ' if exists `' ~ name ~ '`', fetch=false) %}
    {% endfor %}
  {% endif %}
  {{ return({'deleted': [], 'kept': []}) }}
{% endmacro %}
