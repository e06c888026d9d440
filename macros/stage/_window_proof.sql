{#
  The whole-history proof of the input windows, kept in the audit trail (event `window_proven`) and reused while it
  can be trusted (docs/DECISIONS.md, row 82). Every windowed plan checks its own partitions
  through widened windows (_input_windows: `checked`); the proof that builds them from the whole inputs runs when
  the code it proved is not the code being planned, or it is too old, or it failed, or it is asked for.

  What the proof is bound to: the SHA-256 of the compiled SQL, every input with its columns and types and its
  event_time, the declared window and where it came from, the partition column, dbt's version, the adapter and the
  engine's version (the adapter plugin's version is not visible to a macro; the engine's decides what the SQL
  means). Returns {sha256, parts}.
#}
{% macro _window_binding(model_sql, windowing, sources, partition_by) %}
  {% set inputs = [] %}
  {% for source in sources %}
    {% set relation = dbt_backfill._relation(source) %}
    {% set columns = [] %}
    {% for column in dbt_backfill._relation_columns(relation) %}{% do columns.append([column.name, column.data_type]) %}{% endfor %}
    {% do inputs.append({'relation': dbt_backfill._relation_name(relation), 'event_time': source.get('event_time'),
                         'columns': columns}) %}
  {% endfor %}
  {% set parts = {'compiled_sql_sha256': dbt_backfill._sha256_of_text(model_sql),
                  'inputs': inputs | sort(attribute='relation'),
                  'input_window': {'before': windowing.before, 'after': windowing.after, 'declared_by': windowing.declared_by},
                  'partition_by': partition_by, 'dbt_version': dbt_version | string, 'adapter': adapter.type(),
                  'engine_version': dbt_backfill._execute('select version() as v').rows[0]['v'] | string} %}
  {{ return({'sha256': dbt_backfill._sha256_of_text(tojson(parts, sort_keys=true)), 'parts': parts}) }}
{% endmacro %}

{# The plan's settings of the proof, checked before anything is read: {max_age (days), prove_window}. #}
{% macro _window_proof_settings(max_age_days, prove_window) %}
  {% if prove_window is not none and prove_window != 'full' %}
    {% do dbt_backfill._fail('prove_window (--prove-window) takes one value, full: prove the input windows over the whole '
        ~ 'history in this plan, not ' ~ tojson(prove_window) ~ '. Nothing was changed.') %}
  {% endif %}
  {% set max_age = 30 if max_age_days is none else max_age_days %}
  {% if max_age is not integer or max_age is sameas true or max_age is sameas false or max_age < 0 %}
    {% do dbt_backfill._fail('meta.backfill.window_proof_max_age must be how many days a recorded proof of the input '
        ~ 'windows is relied on, a whole number >= 0 (0: prove on every plan; default 30), not ' ~ tojson(max_age_days)
        ~ '. Nothing was changed.') %}
  {% endif %}
  {{ return({'max_age': max_age, 'prove_window': prove_window}) }}
{% endmacro %}

{#
  Whether this plan proves its windows over the whole history, and why; else the proof it relies on. Reads the
  target's `window_proven` rows from a writer who may vouch for a plan (_trusted_writer). Due:
    - when asked (prove_window: full);
    - while a partition found too narrow (by a proof or the widened check, for this code or any earlier one) has
      not been proven for this code by a plan that read the inputs after that failure did: a failure holds until
      a proof that covers its partitions passes, whatever else is proven meanwhile, and a proof that read older
      data (a slow plan recorded after the failure) does not clear it. Every failure is read, and every row of
      this code: no number of later rows pushes one out;
    - when no proof passed for this code, or the last one (by what it read) is older than the max age (days).
  Rows are ordered by when their builds started reading the inputs (`read_at`; recorded_at for rows without).
  `settings`: _window_proof_settings. Returns {due, why, last: {at, run_id, sha256, partitions} | none}.
#}
{% macro _window_proof_due(target_relation, binding, settings) %}
  {% set max_age = settings.max_age %}
  {% if settings.prove_window == 'full' %}
    {{ return({'due': true, 'why': 'asked for (prove_window: full)', 'last': none}) }}
  {% endif %}
  {% set trail = dbt_backfill._window_proof_trail(target_relation, binding.sha256) %}
  {% if trail is none %}
    {{ return({'due': true, 'why': 'no proof is recorded for this model', 'last': none}) }}
  {% endif %}
  {% set rows, outstanding = trail.rows, trail.outstanding %}
  {% if outstanding %}
    {% set values = outstanding.keys() | sort %}
    {{ return({'due': true, 'why': 'the windows were found too narrow on partition(s) ' ~ dbt_backfill._few(values)
        ~ ' (run ' ~ outstanding[values[0]] ~ ') and no proof of them for this code has passed since',
        'last': none}) }}
  {% endif %}
  {% for row in rows | reverse if row.passed and row.this_code %}
    {% set last = {'at': row.read_at[:10], 'run_id': row.run_id, 'sha256': binding.sha256, 'partitions': row.partitions} %}
    {% if max_age == 0 or (row.now - row.recorded_at).total_seconds() > max_age * 86400 %}
      {{ return({'due': true, 'why': 'the last proof for this code (' ~ last.at ~ ') is older than '
          ~ 'meta.backfill.window_proof_max_age (' ~ max_age ~ ' day(s))', 'last': none}) }}
    {% endif %}
    {{ return({'due': false, 'why': none, 'last': last}) }}
  {% endfor %}
  {# what changed, said against the passed proof nearest to this code among the 200 latest (the fewest
     differences; the latest of equals) #}
  {% set nearest = {'changes': none} %}
  {% for row in dbt_backfill._execute(trail.query ~ " and outcome = 'passed' order by recorded_at desc limit 200").rows %}
    {% set changes = dbt_backfill._binding_changes(dbt_backfill._proof_detail(row['detail']).parts, binding.parts) %}
    {% if nearest.changes is none or changes | length < nearest.changes | length %}
      {% do nearest.update({'changes': changes}) %}
    {% endif %}
  {% endfor %}
  {{ return({'due': true, 'why': ('the code changed since the last proof (' ~ nearest.changes | join(', ') ~ ')')
      if nearest.changes is not none else 'no proof is recorded for this model', 'last': none}) }}
{% endmacro %}

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

{# A `window_proven` row's detail as {binding, parts, partitions, read_at}, whatever the text holds (a row that is
   not what _record_window_proof writes proves nothing: its binding matches no code). #}
{% macro _proof_detail(text) %}
  {% set detail = fromjson(text) if text is string else none %}
  {% if detail is not mapping %}{{ return({'binding': none, 'parts': {}, 'partitions': [], 'read_at': none}) }}{% endif %}
  {{ return({'binding': detail.get('binding') if detail.get('binding') is string else none,
             'read_at': detail.get('read_at') if detail.get('read_at') is string else none,
             'parts': detail.get('parts') if detail.get('parts') is mapping else {},
             'partitions': detail.get('partitions') if detail.get('partitions') is sequence
                           and detail.get('partitions') is not string else []}) }}
{% endmacro %}

{# Up to five values, then how many more. #}
{% macro _few(values) %}
  {{ return(values[:5] | join(', ') ~ (' and ' ~ (values | length - 5) ~ ' more' if values | length > 5 else '')) }}
{% endmacro %}

{# What differs between two bindings' parts, as a person reads it: `the compiled SQL`, `the columns of raw.x`, ... #}
{% macro _binding_changes(before, now) %}
  {% set changed = [] %}
  {% if before.get('compiled_sql_sha256') != now.compiled_sql_sha256 %}{% do changed.append('the compiled SQL') %}{% endif %}
  {% set earlier = {} %}
  {% set inputs_before = before.get('inputs') if before.get('inputs') is sequence and before.get('inputs') is not string else [] %}
  {% for input in inputs_before if input is mapping %}{% do earlier.update({input.get('relation'): input}) %}{% endfor %}
  {% for input in now.inputs %}
    {% set old = earlier.get(input.relation) %}
    {% if old is none %}{% do changed.append('a new input ' ~ input.relation) %}
    {% elif old.event_time != input.event_time %}{% do changed.append('the event_time of ' ~ input.relation) %}
    {% elif old.columns != input.columns %}{% do changed.append('the columns of ' ~ input.relation) %}
    {% endif %}
  {% endfor %}
  {% if earlier | length > now.inputs | length %}{% do changed.append('an input no longer read') %}{% endif %}
  {% if before.get('input_window') != now.input_window %}{% do changed.append('the input window') %}{% endif %}
  {% for part, said in [('partition_by', 'the partition column'), ('dbt_version', "dbt's version"), ('adapter', 'the adapter'),
                        ('engine_version', "the engine's version")]
        if before.get(part) != now[part] %}
    {% do changed.append(said) %}
  {% endfor %}
  {{ return(changed or ['its binding']) }}
{% endmacro %}

{# One `window_proven` row, committed: the binding, its parts, the partitions, passed or failed, how, and when the
   builds started reading the inputs. #}
{% macro _record_window_proof(target_relation, run_id, model, binding, partitions, passed, how, read_at) %}
  {% do dbt_backfill.record_audit_event(target_relation, 'window_proven', run_id, {'model': model,
      'outcome': 'passed' if passed else 'failed', 'detail': {'binding': binding.sha256, 'parts': binding.parts,
      'partitions': partitions, 'how': how, 'read_at': read_at}}) %}
  {% do dbt_backfill._commit() %}
{% endmacro %}

{#
  The sentence the terminal and the written plan say of the windows' evidence (one text for both): what this plan
  checked and the whole-history proof it made or relies on.
#}
{% macro _window_evidence(windowing, proof, binding) %}
  {% if proof.due %}
    {{ return('proven over the whole history by this plan for this code (sha256 ' ~ binding.sha256[:12] ~ '…; '
        ~ proof.why ~ '): each partition\'s build b, from the whole inputs, equals its windowed build a') }}
  {% endif %}
  {{ return('checked around each partition in this plan: its build b, read ' ~ windowing.checked_before
      ~ ' day(s) before and ' ~ windowing.checked_after ~ ' after it (the declared window widened by a partition and its '
      ~ 'own reach on each side), equals its build a; proven over the whole history on ' ~ proof.last.at
      ~ ' for this code on partition(s) ' ~ dbt_backfill._few(proof.last.partitions | map('string') | list)
      ~ ' (sha256 ' ~ proof.last.sha256[:12] ~ '…, run ' ~ proof.last.run_id ~ ')') }}
{% endmacro %}
