{#
  The pure-dbt clean (dbt Cloud): drop what a run created and no packet needs.

  dbt run-operation dbt_backfill.clean_backfill --args '{run_id: ...}'            one run
  dbt run-operation dbt_backfill.clean_backfill --args '{orphans: true}'           every run that left something behind
  dbt run-operation dbt_backfill.clean_backfill --args '{orphans: true, dry_run: true}'   only list it

  A run whose plan recorded a packet is cleaned by that packet (clean_run: the recorded packet checked, its backups
  kept while a rollback is still possible unless drop_backups); a run that recorded none (refused, failed, nothing to
  change) by the audit trail alone (clean_orphans). Logs one line saying what was dropped and what was kept, and
  records who ran it (the target's user) in the `cleaned` row.
#}
{% macro clean_backfill(run_id=none, orphans=false, older_than_hours=24, drop_backups=false, dry_run=false) %}
  {% if not execute %}{{ return('') }}{% endif %}
  {% if (run_id is none) == (not orphans) %}
    {% do dbt_backfill._fail('clean_backfill takes a run_id or orphans: true (not both). Nothing was dropped.') %}
  {% endif %}
  {% set cleaned_by = dbt_backfill._invoking_user('dbt run-operation') %}
  {% set recorded = dbt_backfill._recorded_packet(run_id, required=false, nothing_done='Nothing was dropped.')
      if run_id is not none else none %}
  {% if recorded is not none %}
    {# by the packet its plan recorded: the same checks whether it drops or only lists #}
    {% set packet = recorded.packet %}
    {% set dropped = dbt_backfill.clean_run(packet.run_id, packet.model, packet.target_relation, packet.partition_by,
        packet.business_key, packet.material_columns, dbt_backfill._packet_partitions(packet), packet.additive, drop_backups,
        recorded.sha256, cleaned_by, list_only=dry_run) %}
    {# clean_run lists a directory it deletes (Spark) as 'directory <location>' #}
    {% set directories, relations = [], [] %}
    {% for item in dropped %}
      {% do (directories if item.startswith('directory ') else relations).append(item) %}
    {% endfor %}
    {% do log(('Run ' ~ packet.run_id ~ ': would drop ' if dry_run else 'Cleaned run ' ~ packet.run_id ~ ': dropped ')
        ~ relations | length ~ ' relation(s)' ~ (': ' ~ relations | join(', ') if relations else '')
        ~ (('; ' ~ ('would delete ' if dry_run else 'deleted ') ~ directories | length ~ ' directory(ies) the table no longer reads: '
            ~ directories | join(', ')) if directories else '') ~ '.', info=true) %}
  {% else %}
    {% set listed = dbt_backfill.clean_orphans(run_id, older_than_hours, not dry_run, drop_backups, cleaned_by) %}
    {% set dropped = listed | selectattr('action', 'equalto', 'dropped') | map(attribute='relation') | list %}
    {% set to_drop = listed | selectattr('action', 'equalto', 'drop') | map(attribute='relation') | list %}
    {% set kept = listed | selectattr('action', 'equalto', 'keep') | list %}
    {% if run_id is not none and not listed %}
      {% do log('Run ' ~ run_id ~ ': the audit trail records no relation of this run, or none is left. Nothing was dropped.',
          info=true) %}
    {% else %}
      {% do log(('Would drop ' ~ to_drop | length ~ ' relation(s)' ~ (': ' ~ to_drop | join(', ') if to_drop else '')
            if dry_run else 'Dropped ' ~ dropped | length ~ ' relation(s)' ~ (': ' ~ dropped | join(', ') if dropped else ''))
          ~ ('; kept ' ~ kept | length ~ ': ' ~ dbt_backfill._kept_with_reasons(kept) if kept else '')
          ~ '.', info=true) %}
    {% endif %}
  {% endif %}
{% endmacro %}

{% macro _kept_with_reasons(kept) %}
  {% set described = [] %}
  {% for item in kept %}{% do described.append(item.relation ~ ' (' ~ item.reason ~ ')') %}{% endfor %}
  {{ return(described | join('; ')) }}
{% endmacro %}
