{# A value as a message on the terminal shows it (the CLI's shown()): as it is when plain, else JSON-quoted, so a
   newline or an escape character cannot forge a line or move the cursor; at most `width` characters, then "…".
   The rule is _shown_plain_each's. #}
{% macro _shown_plain(value, width=80) %}
  {{ return(dbt_backfill._shown_plain_each([value], width)[0]) }}
{% endmacro %}
