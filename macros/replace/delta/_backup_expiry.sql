{#
  Delta: why the backup (the version before each commit, kept as a shallow clone that names the table's data files)
  may be gone before a rollback needs it, or none. The package has no rollback deadline of its own; the window it
  protects is the approval's: as long as the approval holds (meta.backfill.approval_ttl, `expires_at`), counted
  from the apply. VACUUM deletes the files a commit removed once delta.deletedFileRetentionDuration has passed
  (default 1 week; the clone then cannot be read), and log cleanup drops versions older than
  delta.logRetentionDuration (default 30 days; `VERSION AS OF` then fails): either shorter than that window, the
  plan says so.
#}
{% macro delta___backup_expiry(target_relation, layout, expires_at) %}
  {% set names = {'delta.deletedfileretentionduration': 'delta.deletedFileRetentionDuration',
                  'delta.logretentionduration': 'delta.logRetentionDuration'} %}
  {% set retention = {'delta.deletedFileRetentionDuration': 'interval 1 week', 'delta.logRetentionDuration': 'interval 30 days'} %}
  {% for row in dbt_backfill._execute('show tblproperties ' ~ target_relation).rows if (row[0] | lower) in names %}
    {% do retention.update({names[row[0] | lower]: row[1]}) %}
  {% endfor %}
  {% set now = modules.datetime.datetime.now(modules.pytz.utc) %}
  {% set window = (modules.datetime.datetime.fromisoformat(expires_at) - now).total_seconds() if expires_at else 0 %}
  {% set unit = {'week': 604800, 'day': 86400, 'hour': 3600, 'minute': 60, 'second': 1} %}
  {% set short = [] %}
  {% for name, value in retention.items() %}
    {% set match = modules.re.search('([0-9]+)\\s*(week|day|hour|minute|second)', value | lower) %}
    {% if match and (match.group(1) | int) * unit[match.group(2)] < window %}
      {% do short.append(name ~ ' = ' ~ value) %}
    {% endif %}
  {% endfor %}
  {% if not short %}{{ return(none) }}{% endif %}
  {{ return(dbt_backfill._relation_name(target_relation) ~ ' keeps replaced data files and versions for less than the '
      ~ 'approval holds (' ~ (window / 3600) | round(1) ~ ' hours, until ' ~ expires_at ~ '): ' ~ short | join(', ')
      ~ '. A VACUUM or log cleanup after that can remove the version a rollback restores from') }}
{% endmacro %}
