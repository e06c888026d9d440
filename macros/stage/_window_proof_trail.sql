{#
  The trail of the target's window proofs as this code reads it (none when there is no audit table): every failure,
  of any code, and every row of the code whose binding is `binding_sha256`, from a writer who may vouch for a plan
  (_trusted_writer), ordered by when their builds started reading the inputs (`read_at`; recorded_at for rows
  without); and the partitions a failure still holds: found too narrow, and not proven since for this code by a
  plan that read the inputs after the failure did. Every failure is read, and every row of this code: no number of
  later rows pushes one out. The plan (_window_proof_due) and apply (_refuse_window_failure) read it alike.
  Returns {query, rows, outstanding: {partition: 'run, date[, for earlier code]'} (the latest failure of any code),
  of_this_code: {partition: 'run, date'} (this code's own, kept whatever other code failed there since)}.
#}
{% macro _window_proof_trail(target_relation, binding_sha256) %}
  {% set audit = dbt_backfill._audit_relation(target_relation) %}
  {% if adapter.get_relation(database=audit.database, schema=audit.schema, identifier=audit.identifier) is none %}
    {{ return(none) }}
  {% endif %}
  {% set query = 'select recorded_at, ' ~ dbt.current_timestamp() ~ ' as bf_now, run_id, outcome, detail from ' ~ audit
      ~ " where event = 'window_proven' and target = " ~ dbt_backfill._sql_literal(dbt_backfill._relation_name(target_relation))
      ~ ' and ' ~ dbt_backfill._trusted_writer(audit, target_relation) %}
  {# the failures of any code, and every row of this code (its SHA-256 is in the detail, checked once parsed) #}
  {% set rows = [] %}
  {% for row in dbt_backfill._execute(query ~ " and (outcome <> 'passed' or detail like "
        ~ dbt_backfill._sql_literal('%' ~ binding_sha256 ~ '%') ~ ')').rows %}
    {% set detail = dbt_backfill._proof_detail(row['detail']) %}
    {% set read_at = detail.read_at or (row['recorded_at'] | string) %}
    {% do rows.append({'read_at': read_at, 'order': read_at ~ '|' ~ (row['recorded_at'] | string), 'recorded_at': row['recorded_at'],
                       'now': row['bf_now'], 'run_id': row['run_id'], 'passed': row['outcome'] == 'passed',
                       'this_code': detail.binding == binding_sha256, 'partitions': detail.partitions}) %}
  {% endfor %}
  {% set rows = rows | sort(attribute='order') %}
  {% set outstanding = {} %}
  {% set of_this_code = {} %}
  {% for row in rows %}
    {% for value in row.partitions %}
      {% if not row.passed %}
        {% do outstanding.update({value | string: row.run_id ~ ', ' ~ row.read_at[:10] ~ ('' if row.this_code else ', for earlier code')}) %}
        {% if row.this_code %}{% do of_this_code.update({value | string: row.run_id ~ ', ' ~ row.read_at[:10]}) %}{% endif %}
      {% elif row.this_code %}
        {% do outstanding.pop(value | string, none) %}
        {% do of_this_code.pop(value | string, none) %}
      {% endif %}
    {% endfor %}
  {% endfor %}
  {{ return({'query': query, 'rows': rows, 'outstanding': outstanding, 'of_this_code': of_this_code}) }}
{% endmacro %}
