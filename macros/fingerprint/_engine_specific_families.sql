{# The families with no text common to engines: a fingerprint over one of them compares only on its own engine. #}
{% macro _engine_specific_families() %}
  {{ return(['float', 'nested', 'other']) }}
{% endmacro %}
