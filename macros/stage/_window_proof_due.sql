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
