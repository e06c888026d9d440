{#
  The scan's result, as `stale` emits it and the CLI renders it: {model, target, read_at, scope: {how, count,
  ranges}, windows: {mode, why, declared_by, before, after}, inputs: [{relation, changed_at, event_time, changed_rows,
  changed_days, recounted_days, counted_since}], vouched, compared, stale: [_stale_details], ranges, repair: {cli,
  pure_dbt, partitions} (none when nothing is stale), notes: [what the scan could not see, in words]}.
#}
{% macro _stale_result(model, relation, scope, looked_at, read_at, windowing, vouched, changes, untracked, candidates, stale) %}
  {% set family = dbt_backfill._type_family(scope.partition_column.data_type) %}
  {% set inputs, notes = [], [] %}
  {% for name, change in changes.items() %}
    {% set changed_days = [] %}
    {% for day, seen in change.days.items() if seen.after is not none %}{% do changed_days.append(day) %}{% endfor %}
    {% do inputs.append({'relation': name, 'changed_at': change.changed_at, 'event_time': change.event_time,
        'changed_rows': change.days.values() | map(attribute='changed_rows') | sum, 'changed_days': changed_days | sort,
        'recounted_days': change.recounted, 'counted_since': change.baseline}) %}
    {% if change.baseline is none %}
      {% do notes.append('a row deleted from ' ~ name ~ ' leaves no change time: deletions are seen from the next scan '
          ~ 'on, which compares the rows of each day with the count this scan records') %}
    {% endif %}
  {% endfor %}
  {% for name in untracked %}
    {% do inputs.append({'relation': name, 'changed_at': none, 'event_time': none, 'changed_rows': none,
                         'changed_days': [], 'recounted_days': [], 'counted_since': none}) %}
  {% endfor %}
  {% if untracked %}
    {% do notes.append(untracked | join(', ') ~ ' declare(s) no changed_at, so every partition they reach was compared with '
        ~ 'the model: declare meta.backfill.changed_at (a column that says when a row last changed; a source\'s '
        ~ 'loaded_at_field serves too) to compare only what changed') %}
  {% endif %}
  {% set unvouched = [] %}
  {% for value in looked_at['values'] if value not in vouched.by_value %}{% do unvouched.append(value) %}{% endfor %}
  {% if unvouched %}
    {% do notes.append(unvouched | length ~ ' partition(s) had nothing vouching for them (no earlier scan of this code, '
        ~ 'no recorded write, no --since), so they were compared outright') %}
  {% endif %}
  {% if windowing.mode != 'windowed' and windowing.why %}
    {% do notes.append('each compared partition read the inputs whole: ' ~ windowing.why) %}
  {% endif %}
  {% set stale_values = stale | map(attribute='value') | list %}
  {% set ranges = dbt_backfill._as_ranges(stale_values, family) %}
  {# the shell takes a date or integer range as it is; anything else is quoted for it #}
  {% set argument = ranges if modules.re.match('^[A-Za-z0-9_.,:-]*$', ranges) else "'" ~ ranges | replace("'", "'\\''") ~ "'" %}
  {{ return({
      'model': model, 'target': dbt_backfill._relation_name(relation), 'read_at': read_at,
      'scope': {'how': looked_at.how, 'count': looked_at['values'] | length,
                'ranges': dbt_backfill._as_ranges(looked_at['values'], family)},
      'windows': {'mode': windowing.mode, 'why': windowing.why, 'declared_by': windowing.declared_by,
                  'before': windowing.before, 'after': windowing.after},
      'inputs': inputs, 'vouched': vouched.by_value | length, 'compared': candidates | length,
      'stale': stale, 'ranges': ranges,
      'repair': {'partitions': ranges, 'cli': 'dbt-backfill plan ' ~ model ~ ' --partitions ' ~ argument,
                 'pure_dbt': "dbt run-operation dbt_backfill.plan_backfill --args '{model: " ~ model ~ ', partitions: "'
                             ~ ranges ~ "\"}'"} if stale else none,
      'notes': notes}) }}
{% endmacro %}
