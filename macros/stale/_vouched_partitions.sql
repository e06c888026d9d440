{#
  For each partition of the scan, the last instant something vouches that it held what the model built then:
  {by_value: {value: {at (UTC, _utc_instant), by (in words), scanned (a scan vouched, not the user)}}, last_scan
  (_last_stale_scan, or none), written: {value: the last recorded write, in words (_describe_write)} for each
  partition nothing vouches for because that write came after every vouch}. Only input changes after that instant
  can have made it stale (_stale_candidates); a partition with none is compared outright. What vouches:
    - the last stale scan that vouched for it (it compared it and found it equal, or found nothing changed in what it
      reads since an earlier scan's vouch), for the code being scanned now (its binding: the compiled SQL, the
      inputs' columns, the window), unless a write the audit trail records reached the partition since (a run's
      replacement, a rollback, a full refresh: what it holds since was built by other code, at another time, or is
      rows from before: compared);
    - else `since` (--since): the user's word that it was right then, unless a recorded write reached it after, or a
      scan of any code found it stale (and no write since). This scan only: a scan records as vouched what it compared, and what
      an earlier scan vouched for, never the user's word (docs/DECISIONS.md row 108).
  Each vouch carries its basis (what the partition held when it was given, or what the last write left), which
  _check_vouch_basis holds against the partition now: a write that committed after a scan's read, dated before it,
  or one the audit trail does not record, voids the vouch there.
#}
{% macro _vouched_partitions(relation, values, binding, since, read_at) %}
  {% set since_at = dbt_backfill._parsed_instant(since, '--since') if since else none %}
  {% if since_at and since_at > read_at %}
    {% do dbt_backfill._fail('--since ' ~ since ~ ' is after this scan\'s read (' ~ read_at[:19] ~ ' UTC): nothing can '
        ~ 'vouch for partitions at a time still to come. Nothing was read.') %}
  {% endif %}
  {% set result = {'by_value': {}, 'last_scan': none, 'written': {}} %}
  {% set audit = dbt_backfill._audit_relation(relation) %}
  {% set trail = adapter.get_relation(database=audit.database, schema=audit.schema, identifier=audit.identifier) is not none %}
  {% if trail %}{% do dbt_backfill.refuse_untrusted_audit_table(audit, relation) %}{% endif %}
  {% set last = dbt_backfill._last_stale_scan(audit, relation, binding) if trail else none %}
  {% do result.update({'last_scan': last}) %}
  {% set same_code = last is not none and last.same_code %}
  {% set ledger = dbt_backfill._partition_ledger(relation, values) if trail else {'writes': {}} %}
  {% for value in values %}
    {% set writes = ledger.writes.get(value) or [] %}
    {% set written_at = dbt_backfill._utc_instant(writes[-1].at) if writes else none %}
    {% set scanned = last.vouched.get(value) if same_code else none %}
    {# a finding holds whatever code the scan read: a new binding builds other rows, but vouches for none (issue 54) #}
    {% set found_stale = last is not none and value in last.stale and (written_at is none or written_at[:19] < last.at[:19]) %}
    {% if scanned and (written_at is none or scanned[:19] > written_at[:19]) %}
      {% do result.by_value.update({value: {'at': scanned, 'by': 'the stale scan of ' ~ scanned[:19] ~ ' UTC', 'scanned': true,
                                            'basis': last.held.get(value)}}) %}
    {% elif since_at and not found_stale and (written_at is none or written_at[:19] < since_at[:19]) %}
      {% do result.by_value.update({value: {'at': since_at, 'by': '--since ' ~ since, 'scanned': false,
          'basis': dbt_backfill._basis_of(writes[-1].fingerprint) if writes and writes[-1].fingerprint else none}}) %}
    {% elif writes %}
      {% do result.written.update({value: dbt_backfill._describe_write(writes[-1])}) %}
    {% endif %}
  {% endfor %}
  {{ return(result) }}
{% endmacro %}

{# The last stale scan of the target the audit trail records from a writer it trusts for that (_trusted_writer: the
   target's owner, or the reader itself): {at, read_at, same_code (its binding is `binding`), vouched: {value: instant},
   held: {value: the rows it vouched for (_basis_of)}, stale: [values it found stale], kept: {input: {day: rows}}}, or
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
             'held': detail.get('held') or {},
             'stale': dbt_backfill._expanded_partitions(detail.get('stale') or [])}) }}
{% endmacro %}
