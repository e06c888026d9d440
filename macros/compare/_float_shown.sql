{#
  A changed float's old and new values as a sample shows them: each at 15 significant digits (477.32000000000005 as
  477.32), the digits a double holds for sure, so a sum's last-bit noise does not read as a change of its own. Where
  the two would then read the same, both are kept as the engine printed them (the shortest text of each value), so
  the sample never shows a change nobody can see. Display only: what changed was decided on the canonical texts,
  exactly. NULL, NaN and infinity are shown as they are.
#}
{% macro _float_shown(old, new) %}
  {% set rounded = [] %}
  {% for value in [old, new] %}
    {% set text = value | string | trim %}
    {% if value is not none and modules.re.fullmatch('[-+]?([0-9]+[.]?[0-9]*|[.][0-9]+)([eE][-+]?[0-9]+)?', text) %}
      {% do rounded.append('%.15g' | format(text | float)) %}
    {% else %}
      {% do rounded.append(value) %}
    {% endif %}
  {% endfor %}
  {{ return((old, new) if rounded[0] == rounded[1] else (rounded[0], rounded[1])) }}
{% endmacro %}
