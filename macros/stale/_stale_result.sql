{#
  The scan's result, as `stale` emits it and the CLI renders it: {model, target, read_at, scope: {how, count,
  ranges}, windows: {mode, why, declared_by, before, after, proof: what backs them (_window_proof_said; none when
  the inputs are read whole)}, inputs: [{relation, changed_at, event_time, changed_rows, changed_days,
  recounted_days, counted_since}], vouched, compared (of those looked at), stale: [_stale_details],
  ranges (the partitions the repair names: the stale ones and where their moved keys went), repair: {cli,
  pure_dbt, partitions, and first: the input window to declare before it, where keys moved beyond it
  (_window_for_moved_keys)} (none when nothing is stale), notes: [what the scan could not see, in words]}.
#}
{% macro _stale_result(model, relation, scope, looked_at, read_at, windowing, vouched, changes, untracked, candidates, stale, widen=none,
                       proof=none) %}
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
  {% set unvouched, written, moved = [], [], [] %}
  {% for value in looked_at['values'] if value not in vouched.by_value %}
    {% do (moved if value in (vouched.moved or {}) else written if value in vouched.written else unvouched).append(value) %}
  {% endfor %}
  {% if moved %}
    {% do notes.append(moved | length ~ ' partition(s) no longer held the rows what vouched for them saw ('
        ~ moved[:3] | join(', ') ~ (', …' if moved | length > 3 else '') ~ '), so they were compared outright: a write '
        ~ 'reached them that no vouch saw (one that committed after a scan read them, or one the audit trail does not '
        ~ 'record)') %}
  {% endif %}
  {% if written %}
    {# DECISIONS row 108: a recorded write (replaced, adopted, restored, released, a full refresh) vouches for nothing #}
    {% set each = [] %}
    {% for value in written[:3] %}{% do each.append(value ~ ': ' ~ vouched.written[value]) %}{% endfor %}
    {% do notes.append(written | length ~ ' partition(s) were reached by a recorded run since anything vouched for them ('
        ~ each | join('; ') ~ ('; and ' ~ (written | length - 3) ~ ' more' if written | length > 3 else '')
        ~ '), so they were compared outright: a run\'s rows were built at its plan, by the code of then (or are '
        ~ 'the rows from before, after a rollback), so no run vouches for a partition') %}
  {% endif %}
  {% if unvouched %}
    {% do notes.append(unvouched | length ~ ' partition(s) had nothing vouching for them (no earlier scan of this code '
        ~ 'vouched for them, no --since), so they were compared outright') %}
  {% endif %}
  {% if windowing.mode != 'windowed' and windowing.why %}
    {% do notes.append('each compared partition read the inputs whole: ' ~ windowing.why) %}
  {% endif %}
  {% set repair = dbt_backfill._stale_repair(model, looked_at, family, stale, widen) %}
  {% set ranges = repair.partitions if repair else dbt_backfill._as_ranges([], family) %}
  {% set later = repair.pop('later') if repair else [] %}
  {% if later %}
    {% do notes.append(later | join(', ') ~ ' lie(s) after the target\'s last partition, where the live job has '
        ~ 'not published yet: the repair publishes them and raises the live job\'s watermark (allowed in the command '
        ~ 'below; its next run then resumes after them, and their rows that arrive later are left to a backfill). Else '
        ~ 'let the live job publish them first and scan again') %}
  {% endif %}
  {% set beyond = candidates.keys() | reject('in', looked_at['values']) | list %}
  {% if beyond %}
    {% do notes.append(beyond | length ~ ' partition(s) beyond those looked at were compared too ('
        ~ dbt_backfill._as_ranges(dbt_backfill._in_order(beyond, family), family) ~ '): days after the target\'s '
        ~ 'last that an input changed on, or partitions holding a key a changed row moved') %}
  {% endif %}
  {{ return({
      'model': model, 'target': dbt_backfill._relation_name(relation), 'read_at': read_at,
      'scope': {'how': looked_at.how, 'count': looked_at['values'] | length,
                'ranges': dbt_backfill._as_ranges(looked_at['values'], family)},
      'windows': {'mode': windowing.mode, 'why': windowing.why, 'declared_by': windowing.declared_by,
                  'before': windowing.before, 'after': windowing.after, 'proof': proof},
      'inputs': inputs, 'vouched': vouched.by_value | length,
      'compared': candidates.keys() | select('in', looked_at['values']) | list | length,
      'stale': stale, 'ranges': ranges,
      'repair': repair,
      'notes': notes}) }}
{% endmacro %}

{# The plan that repairs the stale partitions, on both paths: {partitions, cli, pure_dbt, later, first} (none when
   nothing is stale). It names the partitions their moved keys went to as well (plan refuses a key moving out of its
   scope: _window_for_moved_keys), and allows the watermark move where one of them lies after the target's last
   partition (`later`: a day the live job has not published), so the command plans on the state just read. #}
{% macro _stale_repair(model, looked_at, family, stale, widen) %}
  {% if not stale %}{{ return(none) }}{% endif %}
  {% set stale_values = stale | map(attribute='value') | list %}
  {% set values = dbt_backfill._in_order(stale_values + ((widen or {}).moved_to or []) | reject('in', stale_values) | list,
                                         family) %}
  {% set later = values | select('gt', looked_at['values'][-1]) | list
      if looked_at.how.startswith('every day ') and looked_at['values'] else [] %}
  {% set ranges = dbt_backfill._as_ranges(values, family) %}
  {% set reason = 'a key moved to ' ~ later | join(', ') ~ ', after the last published day (dbt-backfill stale)' %}
  {# run as the scan was: a project whose models need its --vars (or its --target) cannot plan without them #}
  {% set args = '{model: ' ~ model ~ ', partitions: ' ~ dbt_backfill._as_yaml(ranges)
      ~ (', allow_watermark_move: ' ~ dbt_backfill._as_yaml(reason) if later else '') ~ '}' %}
  {% set repair = {'partitions': ranges, 'later': later,
                   'cli': 'dbt-backfill plan ' ~ model ~ ' --partitions ' ~ dbt_backfill._shell_word(ranges)
                          ~ (' --allow-watermark-move ' ~ dbt_backfill._shell_word(reason) if later else '') ~ dbt_backfill._invocation_flags(true),
                   'pure_dbt': 'dbt run-operation dbt_backfill.plan_backfill --args ' ~ dbt_backfill._shell_word(args)
                               ~ dbt_backfill._invocation_flags()} %}
  {% if widen and widen.first %}{% do repair.update({'first': widen.first}) %}{% endif %}
  {{ return(repair) }}
{% endmacro %}
