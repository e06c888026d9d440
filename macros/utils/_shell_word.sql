{# A value as one shell word: as it is where it holds nothing the shell reads (a date or integer range, a name),
   else single-quoted, a quote inside written '\'' #}
{% macro _shell_word(text) %}
  {{ return(text if modules.re.match('^[A-Za-z0-9_.,:/=@+-]+$', text) else "'" ~ text | replace("'", "'\\''") ~ "'") }}
{% endmacro %}
