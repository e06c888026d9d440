{# A data value as the written plan shows it: as it is when it holds only plain characters (letters, digits, underscore, space
   and . : + - / , @), else JSON-quoted — newlines, control and escape characters become \n, \u001b, ... — with the
   characters Markdown or HTML would act on escaped (`<!--` cannot hide the rest of the plan, `|` cannot draw a
   table). At most `width` characters of it, then "…": a reviewer reads a sample, not a 2 MB text. The rule is
   _shown_each's. #}
{% macro _shown(value, width=80) %}
  {{ return(dbt_backfill._shown_each([value], width)[0]) }}
{% endmacro %}
