{# Fingerprints compare as values: every field, the totals as exact text. `expected` comes from the packet (YAML).
   duplicate_keys is compared when both sides counted it (equal rows imply equal keys anyway). The totals stay a
   second witness: each is exact (a float totalled as the decimals its values spell: _additive_value), so equal rows
   give equal totals whatever order the engine adds them in (issue 53). The one home of the rule; Python's
   Fingerprint.__eq__ says the same. #}
{% macro _same_fingerprint(actual, expected) %}
  {% for field in ['row_count', 'null_keys', 'sha256', 'algorithm'] %}
    {% if (actual[field] | string) != (expected.get(field) | string) %}{{ return(false) }}{% endif %}
  {% endfor %}
  {% if actual.duplicate_keys is not none and expected.get('duplicate_keys') is not none
        and (actual.duplicate_keys | string) != (expected.get('duplicate_keys') | string) %}
    {{ return(false) }}
  {% endif %}
  {% set expected_totals = expected.get('totals') or {} %}
  {% if (actual.totals | length) != (expected_totals | length) %}{{ return(false) }}{% endif %}
  {% for column, total in actual.totals.items() %}
    {% if (expected_totals.get(column) | string) != total %}{{ return(false) }}{% endif %}
  {% endfor %}
  {{ return(true) }}
{% endmacro %}
