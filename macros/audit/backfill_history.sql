{#
  The audit trail, oldest first: of `model` (it must be a model of the project), else of every model that declares
  meta.backfill, read where apply, rollback and clean wrote it (_audit_relations: beside the model's own relation,
  custom schemas included, or the var dbt_backfill_audit_schema). Optionally one run, events since an instant, and
  at most `limit` events (the newest, shown oldest first). Only reads. Logs the events as a table and emits
  `history`: {audits, events: [{column: text}]}.

  dbt run-operation dbt_backfill.backfill_history --args '{model: fct_trips, since: 2026-03-01, limit: 50}'
  optional: run_id: <run id>; since: a date or an ISO instant (UTC unless it carries an offset)
#}
{% macro backfill_history(model=none, run_id=none, since=none, limit=1000) %}
  {% if not execute %}{{ return('') }}{% endif %}
  {% do dbt_backfill.refuse_unsafe_search_path() %}
  {% set limit = dbt_backfill._positive_integer(limit, 'limit') %}
  {% set since_instant = dbt_backfill._instant_literal(since, 'since') if since is not none else none %}
  {% set string_type = dbt.type_string() %}
  {% set audits = dbt_backfill._audit_relations(model) %}
  {% set found = [] %}
  {% set events = [] %}
  {% for name in audits.keys() | sort %}
    {% set audit = audits[name].audit %}
    {% if adapter.get_relation(database=audit.database, schema=audit.schema, identifier=audit.identifier) is not none %}
      {% do dbt_backfill.refuse_untrusted_audit_table(audit, targets=audits[name].targets) %}
      {% do found.append(name) %}
      {% set conditions = [] %}
      {% if model %}{% do conditions.append('model = ' ~ dbt_backfill._sql_literal(model)) %}{% endif %}
      {% if run_id is not none %}{% do conditions.append('run_id = ' ~ dbt_backfill._sql_literal(run_id | string)) %}{% endif %}
      {% if since_instant %}{% do conditions.append('recorded_at >= ' ~ since_instant) %}{% endif %}
      {% set table = dbt_backfill._execute(
          'select cast(recorded_at as ' ~ string_type ~ ') as recorded_at, recorded_at as bf_instant, run_id, model, '
          ~ 'target, event, partition_value, packet_sha256, approved_by, fingerprint_before, fingerprint_after, '
          ~ 'duration_ms, outcome, detail, ' ~ dbt_backfill._recorded_by_column() ~ ' as recorded_by from ' ~ audit
          ~ (' where ' ~ conditions | join(' and ') if conditions else '')
          ~ ' order by recorded_at desc, run_id desc limit ' ~ limit) %}
      {% for row in table.rows %}
        {% set record = {} %}
        {% for column in table.column_names %}{% do record.update({column: row[column]}) %}{% endfor %}
        {% do events.append(record) %}
      {% endfor %}
    {% endif %}
  {% endfor %}
  {% do dbt_backfill._commit() %}
  {# the newest `limit` of all the tables read, shown oldest first #}
  {% set events = (events | sort(attribute='bf_instant', reverse=true) | list)[:limit] | reverse | list %}
  {% for event in events %}
    {% do event.pop('bf_instant') %}
    {% do event.update(dbt_backfill._event_said(event)) %}
  {% endfor %}

  {% set scope = ('model ' ~ model if model else 'every model with meta.backfill') ~ (', run ' ~ run_id if run_id is not none else '')
                 ~ (', since ' ~ since if since is not none else '') %}
  {% if not found %}
    {% do log('No audit table for ' ~ scope ~ ' (looked for ' ~ audits.keys() | sort | join(', ') ~ '): nothing is recorded there (nothing was planned, or the table was dropped).', info=true) %}
  {% else %}
    {% do log(events | length ~ ' event(s) for ' ~ scope ~ ' in ' ~ found | join(', ') ~ ', oldest first:', info=true) %}
    {# the role that wrote each row, where the engine has roles (PostgreSQL): what the checks read it by #}
    {% set attributed = events | selectattr('recorded_by') | list | length > 0 %}
    {# "run approved by" is the run's approver on every row of it; "done by" who did that row's act, where it records
       one (a rollback, a clean, a full refresh) #}
    {% set rows = [['recorded at', 'run', 'model', 'event', 'partition', 'run approved by', 'done by', 'outcome']
                   + (['recorded by'] if attributed else [])] %}
    {% for e in events %}
      {% do rows.append([(e.recorded_at | string)[:19], e.run_id or '', e.model or '', e.event, e.partition_value or '',
                         e.approved_by or '', e.who or '', e.shown] + ([e.recorded_by or ''] if attributed else [])) %}
    {% endfor %}
    {% for line in dbt_backfill._table_lines(rows) %}{% do log(line, info=true) %}{% endfor %}
  {% endif %}
  {% do dbt_backfill._emit_result('history', {'audits': found, 'looked_in': audits.keys() | sort, 'events': events}) %}
{% endmacro %}

{# A positive integer of at most nine digits from what YAML or a person gives (5, '5': `--limit` as typed, pure dbt's
   `limit`, one rule for both); anything else (0, 1.5, true, more than a bigint holds) is refused as bad input. #}
{% macro _positive_integer(value, name) %}
  {% set whole = value is integer and value is not boolean or value is string and modules.re.fullmatch('[0-9]{1,9}', value) %}
  {% if not whole or (value | int) < 1 or (value | int) > 999999999 %}
    {% do dbt_backfill._fail(name ~ ' must be a positive integer of at most 9 digits (1 to 999999999), got '
        ~ tojson(value | string) ~ '. Nothing was read.') %}
  {% endif %}
  {{ return(value | int) }}
{% endmacro %}

{# An instant as a SQL literal of the engine's instant type (_parsed_instant: a date is its midnight UTC; an ISO
   date-time without an offset is UTC). Anything else is refused as bad input. #}
{% macro _instant_literal(value, name) %}
  {{ return(dbt_backfill._instant_as(dbt_backfill._parsed_instant(value, name), 'timestamptz')) }}
{% endmacro %}

{# Who did it and what came of it, in words, from an event's own columns: `who` (who rolled back or cleaned, who ran
   a full refresh), `said` (the outcome; a full refresh's reason; how an approval was proven) and `shown` (`said` within 60 characters, for the
   table: _shortened). #}
{% macro _event_said(event) %}
  {% set detail = event.detail or '' %}
  {% set who = none %}
  {% if event.event == 'rolled_back' and detail.startswith('by ') %}
    {% set who = detail[3:] %}
  {% elif event.event == 'cleaned' and detail.startswith('{') %}
    {% set who = (fromjson(detail) or {}).get('by') %}
  {% elif event.event == 'full_refresh' %}
    {% set who = event.approved_by %}
  {% endif %}
  {% set said = (event.outcome or '') ~ (': ' ~ detail if event.event == 'full_refresh' and detail else '') %}
  {# how an approval was proven (_approval_proof): the keys that signed it, the login that gave or withdrew it #}
  {% if event.event == 'approved' %}
    {% set proof = dbt_backfill._approval_proof(detail) %}
    {% set said = ((said ~ '; ') if said else '') ~ ('proven by ' ~ proof if proof else 'signed by no key') %}
  {% elif event.event in ('approval_given', 'approval_revoked') %}
    {% set said = ('given' if event.event == 'approval_given' else 'withdrawn') ~ ' with '
        ~ (dbt_backfill._approval_proof(none, [event.recorded_by]) if event.recorded_by else 'a login the engine does not name') %}
  {% endif %}
  {{ return({'who': who, 'said': said, 'shown': dbt_backfill._shortened(said, 60)}) }}
{% endmacro %}

{# `text` within `width` characters, never cut inside a value: a list after "<what>: " (a stale scan's
   "stale: 2026-03-01..2026-03-03,2026-03-09") keeps its first whole items and counts the rest ("… +4 more");
   other text is cut at a space, with "…". #}
{% macro _shortened(text, width) %}
  {% if text | length <= width %}{{ return(text) }}{% endif %}
  {% set head, colon, tail = text.partition(': ') %}
  {% set items = tail.split(',') if colon and ' ' not in tail.strip() else [] %}
  {% if items | length > 1 %}
    {% set kept = [] %}
    {% for item in items %}
      {% set shown = head ~ ': ' ~ (kept + [item]) | join(',') ~ ',… +' ~ (items | length - loop.index) ~ ' more' %}
      {% if kept | length == loop.index0 and shown | length <= width %}{% do kept.append(item) %}{% endif %}
    {% endfor %}
    {{ return(head ~ ': ' ~ (kept | join(',') ~ ',' if kept else '') ~ '… +' ~ (items | length - kept | length) ~ ' more') }}
  {% endif %}
  {% set cut = text[:width - 1] %}
  {{ return((cut.rsplit(' ', 1)[0] if ' ' in cut else cut) ~ '…') }}
{% endmacro %}

{# Rows of text as lines of aligned columns (the first row the header), two spaces apart. #}
{% macro _table_lines(rows) %}
  {% set widths = [] %}
  {% for index in range(rows[0] | length) %}
    {% do widths.append(rows | map(attribute=index) | map('string') | map('length') | max) %}
  {% endfor %}
  {% set lines = [] %}
  {% for row in rows %}
    {% set cells = [] %}
    {% for cell in row %}{% do cells.append((cell | string).ljust(widths[loop.index0])) %}{% endfor %}
    {% do lines.append(('  ' ~ cells | join('  ')).rstrip()) %}
    {% if loop.first %}
      {% set rule = [] %}
      {% for width in widths %}{% do rule.append('-' * width) %}{% endfor %}
      {% do lines.append('  ' ~ rule | join('  ')) %}
    {% endif %}
  {% endfor %}
  {{ return(lines) }}
{% endmacro %}
