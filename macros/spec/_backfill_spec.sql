{#
  The model's data contract, meta.backfill, read one way for both paths: checked key by key and normalized, with the
  CLI's overrides laid on top (an override of none is not given). The CLI reaches it through resolve_plan, pure dbt
  through plan_backfill, the ledger through partition_ledger. Refused with what is wrong and how to write it; nothing
  is read or written before. Returns {partition_by, business_key, order_by, additive, exclude_columns, protected,
  stage_schema, watermark, checks, cost_warning, depends_on_window, approval_ttl, input_window,
  window_proof_max_age}: names as lists, order_by entries as `<column> [asc|desc]` (the direction in lower case),
  watermark as {column|relation|query: ...}, windows as {before: N, after: N}.
#}
{% macro _backfill_spec(model, meta, overrides={}) %}
  {% set known = ['additive', 'approval', 'approval_ttl', 'business_key', 'checks', 'cost_warning', 'depends_on_window',
                  'exclude_columns', 'input_window', 'order_by', 'partition_by', 'protected', 'stage_schema',
                  'watermark', 'window_proof_max_age'] %}
  {% if meta is not none and meta is not mapping %}
    {% do dbt_backfill._fail('meta.backfill of ' ~ model ~ ' must be a mapping. Nothing was changed.') %}
  {% endif %}
  {% set merged = {} %}
  {% do merged.update(meta or {}) %}
  {% set unknown = merged.keys() | reject('in', known) | sort %}
  {% if unknown %}
    {% do dbt_backfill._fail('meta.backfill of ' ~ model ~ ' has unknown key(s) ' ~ unknown | join(', ')
        ~ '; known keys are ' ~ known | join(', ') ~ '. Nothing was changed.') %}
  {% endif %}
  {% for key, value in (overrides or {}).items() if value is not none %}{% do merged.update({key: value}) %}{% endfor %}
  {% if not merged %}
    {% do dbt_backfill._fail(model ~ ' has no meta.backfill: declare at least partition_by and business_key in the '
        ~ 'model\'s config (meta: {backfill: {partition_by: ..., business_key: [...]}}), or pass --partition-by and '
        ~ '--business-key. Nothing was changed.') %}
  {% endif %}
  {% if merged.partition_by is not string or not merged.partition_by %}
    {% do dbt_backfill._fail(model ~ ': meta.backfill.partition_by (or --partition-by) must name one column. Nothing '
        ~ 'was changed.') %}
  {% endif %}
  {# who may approve: checked here with the rest of the contract, before anything is read (_approval_policy) #}
  {% do dbt_backfill._approval_policy({'name': model, 'config': {'meta': {'backfill': merged}}, 'meta': {}}) %}
  {% set business_key = dbt_backfill._spec_names(merged.business_key, 'business_key', model) %}
  {% if not business_key %}
    {% do dbt_backfill._fail(model ~ ': meta.backfill.business_key (or --business-key) must name the column(s) that '
        ~ 'identify a row. Nothing was changed.') %}
  {% endif %}
  {{ return({'partition_by': merged.partition_by, 'business_key': business_key,
             'order_by': dbt_backfill._spec_order(merged.order_by, model),
             'additive': dbt_backfill._spec_names(merged.additive, 'additive', model),
             'exclude_columns': dbt_backfill._spec_names(merged.exclude_columns, 'exclude_columns', model),
             'protected': true if merged.get('protected') else false,
             'stage_schema': merged.get('stage_schema'),
             'watermark': dbt_backfill._spec_watermark(merged.get('watermark'), model),
             'checks': dbt_backfill._spec_checks(merged.get('checks'), model),
             'cost_warning': dbt_backfill._spec_cost_warning(merged.get('cost_warning'), model),
             'depends_on_window': dbt_backfill._spec_window(merged.depends_on_window, 'depends_on_window', model)
                                  if merged.get('depends_on_window') else {},
             'approval_ttl': merged.get('approval_ttl'),
             'input_window': dbt_backfill._spec_window(merged.get('input_window'), 'input_window', model),
             'window_proof_max_age': merged.get('window_proof_max_age')}) }}
{% endmacro %}

{# order_by: the order in which the model ranks the versions of a key (the first wins), each entry a column,
   optionally followed by asc or desc: `updated_at desc` keeps the newest. Kept as declared, the direction in lower
   case; an entry without one says nothing about which version wins. #}
{% macro _spec_order(value, model) %}
  {% set entries = [] %}
  {% for entry in dbt_backfill._spec_names(value, 'order_by', model) %}
    {% set words = entry.split() %}
    {% if not (1 <= words | length <= 2) or (words | length == 2 and words[1] | lower not in ('asc', 'desc')) %}
      {% do dbt_backfill._fail('meta.backfill.order_by of ' ~ model ~ ': ' ~ tojson(entry) ~ ' is not a column '
          ~ 'optionally followed by asc or desc (e.g. `updated_at desc`: the newest version of a key wins). Nothing '
          ~ 'was changed.') %}
    {% endif %}
    {% do entries.append(words[0] ~ ((' ' ~ words[1] | lower) if words | length == 2 else '')) %}
  {% endfor %}
  {{ return(entries) }}
{% endmacro %}

{# {column: <col>} (a bare column name is one), {relation: <schema.table>} or {query: <sql>}; none when absent. #}
{% macro _spec_watermark(value, model) %}
  {% set watermark = {'column': value} if value is string else value %}
  {% if watermark is not none and (watermark is not mapping or watermark | length != 1
        or (watermark.keys() | first) not in ('column', 'relation', 'query') or (watermark.values() | first) is not string) %}
    {% do dbt_backfill._fail('meta.backfill.watermark of ' ~ model ~ ' must be one of {column: <col>}, {relation: '
        ~ '<schema.table>} or {query: <sql>}, not ' ~ tojson(value) ~ '. Nothing was changed.') %}
  {% endif %}
  {{ return(watermark) }}
{% endmacro %}

{% macro _spec_checks(value, model) %}
  {% set checks = value or [] %}
  {% if checks is string or checks is mapping or checks is not iterable
        or (checks | reject('mapping') | list) or (checks | map('length') | reject('equalto', 1) | list) %}
    {% do dbt_backfill._fail('meta.backfill.checks of ' ~ model ~ ' must be a list of one-key mappings (e.g. '
        ~ '- row_count_change_pct: 10), not ' ~ tojson(value) ~ '. Nothing was changed.') %}
  {% endif %}
  {{ return(checks | list) }}
{% endmacro %}

{% macro _spec_cost_warning(value, model) %}
  {% set cost_warning = value or {} %}
  {% if cost_warning is not mapping or (cost_warning.keys() | reject('in', ['rows', 'bytes']) | list)
        or (cost_warning.values() | reject('integer') | list) or (cost_warning.values() | select('boolean') | list)
        or (cost_warning.values() | select('le', 0) | list) %}
    {% do dbt_backfill._fail('meta.backfill.cost_warning of ' ~ model ~ ' must be {rows: N, bytes: N} with positive '
        ~ 'integers, not ' ~ tojson(value) ~ '. Nothing was changed.') %}
  {% endif %}
  {{ return(cost_warning) }}
{% endmacro %}

{# {before: N, after: N}, either side optional, each a whole number >= 0: as both sides (none when absent). #}
{% macro _spec_window(value, field, model) %}
  {% if value is none %}{{ return(none) }}{% endif %}
  {% if value is not mapping or (value.keys() | reject('in', ['before', 'after']) | list)
        or (value.values() | reject('integer') | list) or (value.values() | select('boolean') | list)
        or (value.values() | select('lt', 0) | list) %}
    {% set meaning = 'how many partitions before and after a changed partition of its parents its own rows depend on '
        ~ '(a trailing 28-day metric: {after: 27})' if field == 'depends_on_window' else 'how many days before and '
        ~ 'after a partition its inputs\' event_time may lie for the partition\'s rows (corrections that arrive up to '
        ~ '30 days later: {after: 30})' %}
    {% do dbt_backfill._fail('meta.backfill.' ~ field ~ ' of ' ~ model ~ ' must be {before: N, after: N}: '
        ~ meaning ~ ', each a whole number >= 0, not ' ~ tojson(value) ~ '. Nothing was changed.') %}
  {% endif %}
  {{ return({'before': value.get('before', 0) | int, 'after': value.get('after', 0) | int}) }}
{% endmacro %}
