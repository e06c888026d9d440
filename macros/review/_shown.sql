{# A data value as the written plan shows it: as it is when it holds only plain characters (letters, digits, underscore, space
   and . : + - / , @), else JSON-quoted — newlines, control and escape characters become \n, \u001b, ... — with the
   characters Markdown or HTML would act on escaped (`<!--` cannot hide the rest of the plan, `|` cannot draw a
   table). At most `width` characters of it, then "…": a reviewer reads a sample, not a 2 MB text. #}
{% macro _shown(value, width=80) %}
  {% set cut = dbt_backfill._shown_plain(value, width) %}
  {% if cut == 'NULL' or modules.re.fullmatch('[A-Za-z0-9_ .:+\\-/,@…]*', cut) %}{{ return(cut) }}{% endif %}
  {# a namespace: a plain {% set %} inside the loop would not outlive the iteration #}
  {% set shown = namespace(text=cut) %}
  {% for character, escaped in [('&', '&amp;'), ('<', '&lt;'), ('>', '&gt;'), ('`', '\\`'), ('*', '\\*'), ('_', '\\_'),
                                ('[', '\\['), (']', '\\]'), ('|', '\\|'), ('#', '\\#'), ('~', '\\~')] %}
    {% set shown.text = shown.text.replace(character, escaped) %}
  {% endfor %}
  {{ return(shown.text) }}
{% endmacro %}
