{# The backup a replacement recorded (its audit row's detail), when it no longer exists: its name; else none (an
   adoption, a restore or a full refresh has none). What says a run can no longer be rolled back there (rollback's
   refusal, status, a rollback's note on a partition another run wrote). #}
{% macro _backup_gone(write) %}
  {% if write.event != 'replaced' or not write.get('backup') %}{{ return(none) }}{% endif %}
  {% set parts = write.backup.split('.') %}
  {% set found = adapter.get_relation(database=parts[0] if parts | length > 2 else none, schema=parts[-2], identifier=parts[-1]) %}
  {{ return(write.backup if found is none else none) }}
{% endmacro %}
