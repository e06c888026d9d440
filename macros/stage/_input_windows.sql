{#
  Input windows: what each partition's stage builds read of the model's inputs, on dbt's own contract.

  An input (source, seed, model or snapshot, looking through ephemeral models) that declares dbt's `event_time`
  is read only within the partition's window: the partition's day, widened by `before` days before it and `after`
  days after it. The reach is `meta.backfill.input_window` where declared, else dbt's `lookback` of a microbatch
  model (lookback × batch_size, in whole days, before), else the partition alone. Inputs without `event_time` are
  read whole, as microbatch reads them. A window is a span of days, so only a date partition column is windowed;
  any other reads every input whole (and the plan says why).

  Returns {mode: 'windowed' | 'whole', why, before, after, declared_by, partitions: {value: {start, end}},
           inputs: [input refs with `windows`: merged [start, end) spans of all partitions], whole: [names]}.
  `sources` (the refs _relations_read gives) get `windows` set on the windowed ones: the pin reads what the
  builds read.
#}
{% macro _input_windows(node, scope, partitions, sources, input_window, model_sql) %}
  {% set declared_by, before, after = dbt_backfill._input_reach(node, input_window) %}
  {% set family = dbt_backfill._type_family(scope.partition_column.data_type) %}
  {% set windowed, whole = dbt_backfill._windowable_inputs(sources, model_sql) %}
  {% set result = {'mode': 'whole', 'why': none, 'before': before, 'after': after, 'declared_by': declared_by,
                   'partitions': {}, 'inputs': [], 'whole': whole} %}
  {% if not windowed %}
    {% do result.update({'why': "no input declares dbt's event_time: every input is read whole"
        if not (sources | selectattr('event_time') | list) else 'every input is read whole: ' ~ whole | join('; ')}) %}
    {{ return(result) }}
  {% endif %}
  {% if family != 'date' %}
    {% do result.update({'why': 'the partition column ' ~ scope.partition_column.name ~ ' is ' ~ scope.partition_column.data_type
        ~ ', not a date: a window is a span of days, so every input is read whole'}) %}
    {{ return(result) }}
  {% endif %}
  {# the per-plan check reads beyond the declared window: one more partition and the declared reach again on each
     side, so a window declared one partition (or its own width) too narrow shows as builds a and b that differ #}
  {% set checked_before, checked_after = 2 * before + 1, 2 * after + 1 %}
  {% do result.update({'checked_before': checked_before, 'checked_after': checked_after, 'checked': {}}) %}
  {% set spans = [] %}
  {% for value in partitions %}
    {% set day = modules.datetime.date.fromisoformat(value | string) %}
    {% set span = dbt_backfill._day_span(day, before, after) %}
    {% do result.partitions.update({value: span}) %}
    {% do result.checked.update({value: dbt_backfill._day_span(day, checked_before, checked_after)}) %}
    {% do spans.append([span.start, span.end]) %}
  {% endfor %}
  {# the union of the partitions' windows, as few spans as it takes: what the pin reads #}
  {% set merged = [] %}
  {% for span in spans | sort %}
    {% if merged and span[0] <= merged[-1].end %}
      {% if span[1] > merged[-1].end %}{% do merged[-1].update({'end': span[1]}) %}{% endif %}
    {% else %}
      {% do merged.append({'start': span[0], 'end': span[1]}) %}
    {% endif %}
  {% endfor %}
  {% set spans = [] %}
  {% for span in merged %}{% do spans.append([span.start, span.end]) %}{% endfor %}
  {% for source in windowed %}
    {% do source.update({'windows': spans}) %}
    {% do result.inputs.append(source) %}
  {% endfor %}
  {% do result.update({'mode': 'windowed'}) %}
  {{ return(result) }}
{% endmacro %}

{# How far each partition's window reaches: [declared_by, before, after] in days, from meta.backfill.input_window
   (checked here as well as by the CLI's spec: the pure-dbt path passes meta.backfill as it is), else a microbatch
   model's lookback (lookback × batch_size, in whole days, before), else the partition alone. #}
{% macro _input_reach(node, input_window) %}
  {% if input_window is not none and (input_window is not mapping or (input_window.keys() | reject('in', ['before', 'after']) | list)
        or (input_window.values() | reject('integer') | list)
        or (input_window.values() | select('integer') | select('lt', 0) | list)) %}
    {% do dbt_backfill._fail('meta.backfill.input_window must be {before: N, after: N}: how many days before and after a '
        ~ 'partition its inputs\' event_time may lie for the partition\'s rows, each a whole number >= 0, not '
        ~ tojson(input_window) ~ '. Nothing was changed.') %}
  {% endif %}
  {% set declared_by, before, after = 'the partition alone (no meta.backfill.input_window, no lookback)', 0, 0 %}
  {% set config = (node.config if node else {}) or {} %}
  {% if input_window is not none %}
    {% set declared_by = 'meta.backfill.input_window' %}
    {% set before, after = (input_window.get('before') or 0) | int, (input_window.get('after') or 0) | int %}
  {% elif config.get('incremental_strategy') == 'microbatch' and config.get('lookback') is not none %}
    {% set days_per_batch = {'hour': 1 / 24, 'day': 1, 'month': 31, 'year': 366}.get(config.get('batch_size') or 'day', 1) %}
    {% set before = ((config.get('lookback') | int) * days_per_batch) | round(0, 'ceil') | int %}
    {% set declared_by = "dbt's lookback (" ~ config.get('lookback') ~ ' × ' ~ (config.get('batch_size') or 'day') ~ ')' %}
  {% endif %}
  {{ return([declared_by, before, after]) }}
{% endmacro %}

{#
  Which inputs are windowed: [windowed refs (each given its `event_time_type`), names read whole (with why)].
  An input is windowed only where the builds and the pin can read the same rows of it: its event_time is one of
  its columns (the bounds are typed by that column: a timestamp with time zone gets UTC instants, as dbt's
  microbatch bounds are, so a session in another zone reads the same rows) and the compiled SQL names it only
  as dbt renders it (another rendering, `"raw"."trip_events"` for `"db"."raw"."trip_events"`, would be read
  whole by the builds while the pin read a window).
#}
{% macro _windowable_inputs(sources, model_sql) %}
  {% set windowed, whole = [], [] %}
  {% for source in sources %}
    {% set why = none %}
    {% set event_time_type = none %}
    {% if source.get('event_time') %}
      {% for column in dbt_backfill._relation_columns(dbt_backfill._relation(source))
            if (column.name | lower) == (source.event_time | replace('"', '') | replace('`', '') | lower) %}
        {% set event_time_type = dbt_backfill._type_family(column.data_type) %}
        {% do source.update({'event_time_type': event_time_type}) %}
      {% endfor %}
      {% if source.get('event_time_type') is none %}
        {% set why = 'its event_time ' ~ source.event_time ~ ' is not one of its columns' %}
      {% elif not dbt_backfill._named_only_as_rendered(model_sql, source) %}
        {% set why = "the model's SQL names it other than as dbt renders it (" ~ source.relation_name ~ ')' %}
      {% endif %}
    {% else %}
      {% set why = 'no event_time' %}
    {% endif %}
    {% if why is none %}
      {% do windowed.append(source) %}
    {% else %}
      {% do whole.append(dbt_backfill._relation_name(dbt_backfill._relation(source)) ~ ' (' ~ why ~ ')') %}
    {% endif %}
  {% endfor %}
  {{ return([windowed, whole]) }}
{% endmacro %}

{# The days a partition's inputs are read for: [day - before, day + 1 + after), as ISO dates. #}
{% macro _day_span(day, before, after) %}
  {{ return({'start': (day - modules.datetime.timedelta(days=before)).isoformat(),
             'end': (day + modules.datetime.timedelta(days=1 + after)).isoformat()}) }}
{% endmacro %}

{# `event_time` within any of `windows` ([start, end) days). The bounds are literals of the event_time column's kind:
   a day for a date or a timestamp without time zone, a UTC instant for a timestamp with time zone (as dbt writes
   a microbatch bound, `2026-03-01 00:00:00+00:00`), so the builds (in the session's zone) and the pin (pinned to
   UTC) read the same rows. #}
{% macro _window_predicate(event_time, windows, event_time_type) %}
  {% set suffix = ' 00:00:00+00:00' if event_time_type == 'timestamptz' else '' %}
  {% set spans = [] %}
  {% for window in windows %}
    {% do spans.append('(' ~ event_time ~ " >= '" ~ window[0] ~ suffix ~ "' and " ~ event_time ~ " < '" ~ window[1] ~ suffix ~ "')") %}
  {% endfor %}
  {{ return(spans | join(' or ')) }}
{% endmacro %}

{# The pattern of `input`'s name exactly as dbt renders it (relation_name, case and quotes as they are): the
   whole name only, not the tail of `other_raw.trip_events` nor the head of `trip_events_v2` or of
   `"db"."raw"."trip_events".fare`. #}
{% macro _rendered_name_pattern(input) %}
  {{ return('(?<![\\w."`$])' ~ modules.re.escape(input.relation_name) ~ '(?![\\w."`$])') }}
{% endmacro %}

{# True when the compiled SQL names `input` and only as dbt renders it: once every such name is taken out, no
   qualified `.<identifier>` (another rendering of it: `"raw"."trip_events"`, `raw.trip_events`, a column
   qualified by the full name) is left. An unqualified name that resolves by search path is not seen. #}
{% macro _named_only_as_rendered(model_sql, input) %}
  {% set re = modules.re %}
  {% set name = dbt_backfill._rendered_name_pattern(input) %}
  {% if not re.search(name, model_sql) %}{{ return(false) }}{% endif %}
  {% set rest = re.sub(name, ' ', model_sql) %}
  {{ return(not re.search('(?i)\\.\\s*["`]?' ~ re.escape(input.identifier) ~ '["`]?(?![\\w$])', rest)) }}
{% endmacro %}

{#
  The model's compiled SQL with each windowed input replaced by a filtered subquery, exactly where dbt put the
  input's name (its `relation_name`), as dbt renders a ref or source for microbatch and --sample:
  `(select * from <input> where <event_time> >= '<start>' and <event_time> < '<end>') <alias>`. The model's logic
  is not touched. The alias is the one the model gave the input, else the input's own name, so `t.col` and
  `trip_events.col` still resolve (dbt's `_dbt_et_filter_subq_` alias breaks both).
#}
{% macro _windowed_sql(model_sql, inputs, window) %}
  {% set re = modules.re %}
  {# words that may follow a relation and are not an alias of it #}
  {% set not_alias = 'where|join|inner|left|right|full|cross|natural|on|using|group|order|limit|offset|union|intersect'
      ~ '|except|minus|having|window|qualify|lateral|for|fetch|tablesample|select|from|and|or|when|then|else|end'
      ~ '|pivot|unpivot|returning|into|values|anti|semi|positional|asof|distribute|sort|cluster|as|at|with'
      ~ '|outer|start|connect|model|match_recognize|changes|before' %}
  {# a mapping, not a set: a set inside a for loop is gone when the loop ends #}
  {% set sql = {'text': model_sql} %}
  {% for input in inputs %}
    {% set placeholder = '__dbt_backfill_input_' ~ loop.index0 ~ '__' %}
    {% set subquery = '(select * from ' ~ placeholder ~ ' where '
        ~ dbt_backfill._window_predicate(input.event_time, [[window.start, window.end]], input.event_time_type) ~ ')' %}
    {% set name = dbt_backfill._rendered_name_pattern(input) %}
    {# quoted names are case-sensitive: the name is matched exactly, only the words after it in any case #}
    {% set alias = '(\\s+(?:(?i:as)\\s+)?)(?!(?i:' ~ not_alias ~ ')\\b)([A-Za-z_][A-Za-z0-9_$]*|"[^"]+"|`[^`]+`)' %}
    {% set aliased = re.sub(name ~ alias, subquery.replace('\\', '\\\\') ~ '\\1\\2', sql.text) %}
    {% set own = input.identifier if re.match('^[a-z_][a-z0-9_]*$', input.identifier) else adapter.quote(input.identifier) %}
    {% set rendered = re.sub(name, (subquery ~ ' ' ~ own).replace('\\', '\\\\'), aliased) %}
    {% do sql.update({'text': rendered.replace(placeholder, input.relation_name)}) %}
  {% endfor %}
  {{ return(sql.text) }}
{% endmacro %}

{#
  The windows' check, on every windowed plan and every partition: build a read the inputs within the partition's
  window, build b read them through the widened window (`checked`) or, when the plan proves the windows
  (`run.proving`), is the partition's rows of one build from the whole inputs. Equal, the window holds for that
  partition (and the model gave the same rows twice). Where they differ the partition is built windowed once more:
  equal to build a, its window is too narrow (its rows need inputs outside it) and the plan is refused with the
  counts that differ for every such partition; different, the model is not deterministic, and the plan's
  two-builds check says so (build b is then the second windowed build).
  The outcome is recorded (`window_proven`, _record_window_proof): a proof that passed, and any window found too
  narrow, by the proof or the widened check, which then holds until a proof passes.
  `run`: {target, run_id, model, binding, proving, read_at}.
#}
{% macro _prove_input_windows(planned, partition_plans, windowing, model_sql, scope, run) %}
  {% set unsettled = [] %}
  {% set narrow = [] %}
  {% for plan in partition_plans %}
    {% set entry = planned[loop.index0] %}
    {% if not entry.builds_equal %}
      {% set window = windowing.partitions[plan.value] %}
      {% do dbt_backfill._step('comparing the windowed and the whole build of partition ' ~ plan.value,
          'comparing the windowed and the whole build of partition ' ~ plan.value ~ ' failed (see the error below). No '
          ~ 'packet was written and the target is unchanged.') %}
      {% set differences = dbt_backfill.change_summary(plan.relations.b, plan.relations.a, scope, plan.value, 3) %}
      {% set whole = entry.builds.b %}
      {% set read = windowing.checked[plan.value] %}
      {% do dbt_backfill._unpin_session() %}
      {% do dbt_backfill.build_stage(plan.relations.b, dbt_backfill._windowed_sql(model_sql, windowing.inputs, window),
                                     dbt_backfill._partition_predicate(scope.partition_column, plan.value)) %}
      {% do dbt_backfill.pin_session() %}
      {% set again = dbt_backfill._fingerprint_in_scope(plan.relations.b, scope) %}
      {% if dbt_backfill._same_fingerprint(entry.builds.a, again) %}
        {% set keys = [] %}
        {% for sampled in differences.sample %}{% do keys.append(sampled.key) %}{% endfor %}
        {% for key in (differences.added_keys or []) + (differences.removed_keys or []) %}{% do keys.append(key) %}{% endfor %}
        {% do narrow.append({'partition': plan.value, 'window': window, 'windowed_rows': entry.builds.a.row_count,
            'whole_rows': whole.row_count, 'added': differences.added, 'removed': differences.removed,
            'changed': differences.changed, 'keys': keys[:5],
            'read_by_b': 'from the whole inputs' if run.proving else 'read within [' ~ read.start ~ ', ' ~ read.end ~ ')'}) %}
      {% else %}
        {% do entry.builds.update({'b': again}) %}
        {% do unsettled.append(plan.value) %}
      {% endif %}
    {% endif %}
  {% endfor %}
  {% if run.proving and not narrow and not unsettled %}
    {% do dbt_backfill._record_window_proof(run.target, run.run_id, run.model, run.binding,
        partition_plans | map(attribute='value') | list, true, 'whole', run.read_at) %}
  {% endif %}
  {% if narrow %}
    {% do dbt_backfill._record_window_proof(run.target, run.run_id, run.model, run.binding,
        narrow | map(attribute='partition') | list, false, 'whole' if run.proving else 'widened', run.read_at) %}
    {% set inputs, described = [], [] %}
    {% for input in windowing.inputs %}
      {% do inputs.append(dbt_backfill._relation_name(dbt_backfill._relation(input)) ~ ' by ' ~ input.event_time) %}
    {% endfor %}
    {% for n in narrow %}
      {% do described.append(n.partition ~ ': read within [' ~ n.window.start ~ ', ' ~ n.window.end ~ ') it gives '
          ~ n.windowed_rows ~ ' rows, ' ~ n.read_by_b ~ ' ' ~ n.whole_rows ~ '; by business key the windowed build has '
          ~ n.added ~ ' row(s) the ' ~ ('whole' if run.proving else 'wider') ~ ' build lacks, lacks ' ~ n.removed ~ ' and differs in ' ~ n.changed
          ~ (' (' ~ n['keys'] | join(', ') ~ ')' if n['keys'] else '')) %}
    {% endfor %}
    {% do dbt_backfill._refuse('input_window_too_narrow',
        'the input window does not hold for partition(s) ' ~ narrow | map(attribute='partition') | join(', ') ~ ' ('
        ~ inputs | join(', ') ~ '; ' ~ windowing.declared_by ~ ': ' ~ windowing.before ~ ' day(s) before, '
        ~ windowing.after ~ ' after): ' ~ described | join('; ') ~ '. Their rows need inputs outside the window: widen '
        ~ 'meta.backfill.input_window ({before: N, after: N} days), or set the inputs\' event_time to the business date the '
        ~ 'partition is derived from. A windowed build is never published unproven' ~ ('' if run.proving else
        ' (the window\'s last proof over the whole history no longer stands: the next plan makes it again)')
        ~ '. No packet was written and the target is unchanged.', {'partitions': narrow}) %}
  {% endif %}
{% endmacro %}

{# What the packet and the written plan record of the windows: per partition its [start, end) and the widened one
   its build b read, per input its event_time and the spans the pin reads, the inputs read whole, where the reach
   came from, and the evidence: the proof this plan made or relies on, and the sentence that says so. #}
{% macro _windows_recorded(windowing, proof, binding) %}
  {% set inputs = [] %}
  {% for input in windowing.inputs %}
    {% do inputs.append({'relation': dbt_backfill._relation_name(dbt_backfill._relation(input)), 'event_time': input.event_time,
                         'windows': input.windows}) %}
  {% endfor %}
  {{ return({'mode': windowing.mode, 'why': windowing.why, 'before': windowing.before, 'after': windowing.after,
             'declared_by': windowing.declared_by, 'partitions': windowing.partitions, 'inputs': inputs,
             'whole': windowing.whole, 'checked': windowing.get('checked') or {},
             'proof': none if binding is none else {'binding': binding.sha256, 'proven_by_this_plan': proof.due,
                                                    'why': proof.why, 'last': proof.last},
             'evidence': none if binding is none else dbt_backfill._window_evidence(windowing, proof, binding)}) }}
{% endmacro %}
