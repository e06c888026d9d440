{#
  For each partition of the scan, the last instant something vouches that it held what the model built then:
  {by_value: {value: {at (UTC, _utc_instant), by (in words)}}, last_scan (_last_stale_scan, or none)}.
  Only input changes after that instant can have made it stale (_stale_candidates); a partition with none is
  compared outright. What vouches, the latest first:
    - the last stale scan that found it equal (or found nothing changed for it), for the code being scanned now
      (its binding: the compiled SQL, the inputs' columns, the window), unless a write reached the partition since;
    - otherwise, for that code, the write the audit trail records last (_partition_ledger): a full refresh, as of
      its start; a run whose rows it holds (a replacement or an adoption, or a rollback that put an earlier run's
      rows back), as of that run's builds (its `building_stages` row); a partition holding rows no run wrote
      (the live job's, after a rollback) has none;
    - `since` (--since): the user's word that every partition was right then, where nothing recorded is later (a
      partition the last scan found stale stays unvouched until a write reaches it).
  A write to the target that the audit trail does not record (the live job rewriting a day) is not seen here: the
  model built those rows then too, so input changes since are what matter; any other writer is `partitions`' to show.
#}
{% macro _vouched_partitions(relation, values, binding, since) %}
  {% set since_at = dbt_backfill._parsed_instant(since, '--since') if since else none %}
  {% set result = {'by_value': {}, 'last_scan': none} %}
  {% set audit = dbt_backfill._audit_relation(relation) %}
  {% set trail = adapter.get_relation(database=audit.database, schema=audit.schema, identifier=audit.identifier) is not none %}
  {% if trail %}{% do dbt_backfill.refuse_untrusted_audit_table(audit, relation) %}{% endif %}
  {% set last = dbt_backfill._last_stale_scan(audit, relation, binding) if trail else none %}
  {% do result.update({'last_scan': last}) %}
  {% set same_code = last is not none and last.same_code %}
  {% set ledger = dbt_backfill._partition_ledger(relation, values) if trail else {'writes': {}, 'holders': {}} %}
  {% set started = dbt_backfill._runs_started(audit, relation) if trail and same_code else {} %}
  {% for value in values %}
    {% set writes = ledger.writes.get(value) or [] %}
    {% set written_at = dbt_backfill._utc_instant(writes[-1].at) if writes else none %}
    {% set holders = ledger.holders.get(value) or [] %}
    {% set scanned = last.vouched.get(value) if same_code else none %}
    {% set vouch = {} %}
    {% if scanned and (written_at is none or scanned[:19] > written_at[:19]) %}
      {% do vouch.update({'at': scanned, 'by': 'the stale scan of ' ~ scanned[:19] ~ ' UTC'}) %}
    {% elif writes and same_code and writes[-1].event == 'full_refresh' %}
      {% do vouch.update({'at': written_at, 'by': 'the full refresh of ' ~ written_at[:19] ~ ' UTC'}) %}
    {% elif writes and same_code and holders and started.get(holders[-1]) %}
      {% do vouch.update({'at': started[holders[-1]], 'by': 'run ' ~ holders[-1] ~ ', built from ' ~ started[holders[-1]][:19] ~ ' UTC'}) %}
    {% endif %}
    {% set found_stale = same_code and value in last.stale and (written_at is none or written_at[:19] < last.at[:19]) %}
    {% if since_at and not found_stale and (written_at is none or written_at[:19] < since_at[:19])
          and (not vouch or vouch.at < since_at) %}
      {% do vouch.update({'at': since_at, 'by': '--since ' ~ since}) %}
    {% endif %}
    {% if vouch %}{% do result.by_value.update({value: vouch}) %}{% endif %}
  {% endfor %}
  {{ return(result) }}
{% endmacro %}

{# The last stale scan of the target the audit trail records from a writer it trusts: {at, read_at, same_code (its
   binding is `binding`), vouched: {value: instant}, stale: [values it found stale], kept: {input: {day: rows}}}, or
   none. #}
{% macro _last_stale_scan(audit, relation, binding) %}
  {% set rows = dbt_backfill._execute('select cast(recorded_at as ' ~ dbt.type_string() ~ ') as recorded_at, detail from '
      ~ audit ~ ' where target = ' ~ dbt_backfill._sql_literal(dbt_backfill._relation_name(relation))
      ~ " and event = 'stale_scan' and " ~ dbt_backfill._trusted_writer(audit, relation)
      ~ ' order by recorded_at desc limit 1').rows %}
  {% if not rows or not (rows[0]['detail'] or '').startswith('{') %}{{ return(none) }}{% endif %}
  {% set detail = fromjson(rows[0]['detail']) %}
  {% set vouched = {} %}
  {% for at, items in detail.get('vouched') or [] %}
    {% for value in dbt_backfill._expanded_partitions(items) %}{% do vouched.update({value: at}) %}{% endfor %}
  {% endfor %}
  {{ return({'at': dbt_backfill._utc_instant(rows[0]['recorded_at']), 'read_at': detail.get('read_at'),
             'same_code': detail.get('binding') == binding, 'vouched': vouched, 'kept': detail.get('kept') or {},
             'stale': dbt_backfill._expanded_partitions(detail.get('stale') or [])}) }}
{% endmacro %}

{# {run_id: the instant its plan started building (its first `building_stages` row)}: what a run's rows were
   built from is no older than that. #}
{% macro _runs_started(audit, relation) %}
  {% set started = {} %}
  {% for row in dbt_backfill._execute('select run_id, cast(min(recorded_at) as ' ~ dbt.type_string() ~ ') as started_at from '
      ~ audit ~ ' where target = ' ~ dbt_backfill._sql_literal(dbt_backfill._relation_name(relation))
      ~ " and event = 'building_stages' and " ~ dbt_backfill._trusted_writer(audit, relation)
      ~ ' group by run_id').rows %}
    {% do started.update({row['run_id']: dbt_backfill._utc_instant(row['started_at'])}) %}
  {% endfor %}
  {{ return(started) }}
{% endmacro %}
