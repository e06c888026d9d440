{# The relations whose states differ between two reads, each read described as '<rows> rows, state <state>'
   (a SHA-256 shortened to 12 digits), and its columns when those differ. #}
{% macro _moved_sources(first, second) %}
  {% set moved = [] %}
  {% for name, state in first.items() %}
    {% set other = second.get(name) or {} %}
    {% if other != state %}
      {% do moved.append({'relation': name, 'first': dbt_backfill._described_state(state, other),
                          'second': dbt_backfill._described_state(other, state)}) %}
    {% endif %}
  {% endfor %}
  {{ return(moved) }}
{% endmacro %}

{% macro _described_state(state, other) %}
  {% set text = state.get('state', '') | string %}
  {% set described = state.get('row_count', '?') ~ ' rows, state ' ~ (text[:12] ~ '…' if text | length > 24 else text) %}
  {% if state.get('columns') != other.get('columns') %}
    {% set described = described ~ ', columns (' ~ state.get('columns', '?') ~ ')' %}
  {% endif %}
  {{ return(described) }}
{% endmacro %}
