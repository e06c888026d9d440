{# A partition's fingerprint ({row_count, sha256}) as a vouch records it: "<rows>:<first 16 hex of the SHA-256>". #}
{% macro _basis_of(fingerprint) %}
  {{ return((fingerprint.row_count | string) ~ ':' ~ (fingerprint.sha256 | string)[:16]) }}
{% endmacro %}
