{# The families whose canonical text is made only of digits, letters, '-', '+', ':', '.' and spaces: written as
   they are. Every other family is escaped by canonical_text. #}
{% macro _families_without_separators() %}
  {{ return(['integer', 'decimal', 'boolean', 'date', 'timestamp', 'timestamptz', 'uuid', 'binary', 'float']) }}
{% endmacro %}
