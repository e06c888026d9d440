{# A value as a message on the terminal shows it (the CLI's shown()): as it is when plain, else JSON-quoted, so a
   newline or an escape character cannot forge a line or move the cursor; at most `width` characters, then "…". #}
{% macro _shown_plain(value, width=80) %}
  {% if value is none %}{{ return('NULL') }}{% endif %}
  {% set text = value | string %}
  {% set cut = text[:width] ~ ('…' if text | length > width else '') %}
  {% if modules.re.fullmatch('[A-Za-z0-9_ .:+\\-/,@…]*', cut) %}{{ return(cut) }}{% endif %}
  {{ return(tojson(cut)) }}
{% endmacro %}
