{#
  The model's compiled SQL with each windowed input replaced by a filtered subquery, exactly where dbt put the
  input's name (its `relation_name`), as dbt renders a ref or source for microbatch and --sample:
  `(select * from <input> where <event_time> >= '<start>' and <event_time> < '<end>') <alias>`. The model's logic
  is not touched. The alias is the one the model gave the input, else the input's own name, so `t.col` and
  `trip_events.col` still resolve (dbt's `_dbt_et_filter_subq_` alias breaks both).
  `window`: one {start, end}, or a list of [start, end) spans (the stale scan reads several partitions' windows).
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
  {% set spans = window if window is sequence and window is not mapping else [[window.start, window.end]] %}
  {% for input in inputs %}
    {% set placeholder = '__dbt_backfill_input_' ~ loop.index0 ~ '__' %}
    {% set subquery = '(select * from ' ~ placeholder ~ ' where '
        ~ dbt_backfill._window_predicate(input.event_time, spans, input.event_time_type) ~ ')' %}
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
