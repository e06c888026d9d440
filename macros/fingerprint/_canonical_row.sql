{# _canonical_row(canonical fields): a row's canonical fields joined by '|' — the text the fingerprint and the
   commitment digest, and the change summary compares. #}
{% macro _canonical_row(fields) %}
  {{ return(fields | join(" || '|' || ")) }}
{% endmacro %}
