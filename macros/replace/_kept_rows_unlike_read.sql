{# A backup by reference (Delta's clone at version v, Iceberg's snapshot S) keeps the partition as the table held it
   when the backup was made, and apply has just read the partition (`unit.before`, equal to the plan's
   target_before). When the kept rows are not those, another writer committed to the partition in between: kept as
   the backup, its commit would be replaced by the apply unseen. Returns the refusal's sentence (`where_now`: where
   the table is now, "the table is now at version 12"), or none when the kept rows are the ones read. The caller
   refuses with it (target_changed), after removing what it made. #}
{% macro _kept_rows_unlike_read(kept_relation, unit, where_now) %}
  {% if unit.get('before') is none %}{{ return(none) }}{% endif %}
  {% set kept = dbt_backfill._fingerprint_in_scope(kept_relation, unit.scope, unit.value, true) %}
  {% if dbt_backfill._same_fingerprint(kept, unit.before) %}{{ return(none) }}{% endif %}
  {{ return('partition ' ~ unit.value ~ ' changed while it was read: ' ~ where_now ~ ', whose rows of it (sha256 '
            ~ kept.sha256[:12] ~ '…) are not the ones just checked (sha256 ' ~ unit.before.sha256[:12] ~ '…): another '
            ~ 'writer committed to it. Nothing of this partition was written; it is as that writer left it. Plan again.') }}
{% endmacro %}
