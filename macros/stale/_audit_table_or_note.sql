{# True when the target's audit table exists, where a stale scan records itself. Else false, and the scan's result
   says so in a note and `recorded: false`: a read-only command (`stale`, `partitions`, `history`) never makes the
   table, whose owner is the trust anchor (docs/security.md: the target's owner makes it, create_audit_table); the
   first command that records makes it otherwise (a new user read the note as if only the owner could). #}
{% macro _audit_table_or_note(relation, model, result) %}
  {% set audit = dbt_backfill._audit_relation(relation) %}
  {% set found = adapter.get_relation(database=audit.database, schema=audit.schema, identifier=audit.identifier) is not none %}
  {% do result.update({'recorded': found}) %}
  {% if not found %}
    {% do result.notes.append('no audit table (' ~ dbt_backfill._relation_name(audit) ~ '), so this scan was not recorded '
        ~ 'and vouches for nothing at the next one, which compares every partition again; a read-only command never '
        ~ 'makes the table: the first command that records makes it (a plan, an approval given with --target, an '
        ~ 'apply), or the target\'s owner first, with `dbt run-operation dbt_backfill.create_audit_table --args '
        ~ '\'{model: ' ~ model ~ '}\'' ~ dbt_backfill._invocation_flags() ~ '`') %}
  {% endif %}
  {{ return(found) }}
{% endmacro %}
