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
  {% set spans = dbt_backfill._merged_spans(spans) %}
  {% for source in windowed %}
    {% do source.update({'windows': spans}) %}
    {% do result.inputs.append(source) %}
  {% endfor %}
  {% do result.update({'mode': 'windowed'}) %}
  {{ return(result) }}
{% endmacro %}

{# How far each partition's window reaches: [declared_by, before, after] in days, from meta.backfill.input_window
   (checked, on both paths, by _backfill_spec before any plan starts), else a microbatch model's lookback
   (lookback × batch_size, in whole days, before), else the partition alone. #}
{% macro _input_reach(node, input_window) %}
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
