{# Every value of `values` as _shown shows one, in one call (a plan's samples show thousands of values). #}
{% macro _shown_each(values, width=80) %}
  {% set shown = [] %}
  {% for cut in dbt_backfill._shown_plain_each(values, width) %}
    {% if cut == 'NULL' or modules.re.fullmatch('[A-Za-z0-9_ .:+\\-/,@…]*', cut) %}
      {% do shown.append(cut) %}
    {% else %}
      {# a namespace: a plain {% set %} inside the loop would not outlive the iteration #}
      {% set escaping = namespace(text=cut) %}
      {% for character, escaped in [('&', '&amp;'), ('<', '&lt;'), ('>', '&gt;'), ('`', '\\`'), ('*', '\\*'), ('_', '\\_'),
                                    ('[', '\\['), (']', '\\]'), ('|', '\\|'), ('#', '\\#'), ('~', '\\~')] %}
        {% set escaping.text = escaping.text.replace(character, escaped) %}
      {% endfor %}
      {% do shown.append(escaping.text) %}
    {% endif %}
  {% endfor %}
  {{ return(shown) }}
{% endmacro %}
