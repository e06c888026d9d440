{#
  A vouch counts only while the partition still holds what it vouched for (docs/DECISIONS.md, issue 54). One read of
  the target grouped by partition takes every looked-at partition's checksum now (_partition_checksums: its rows
  and an order-free sum of the engine's row hashes; `values`). A scan's vouch is held against the checksum it
  recorded (its `held`); --since's, against the canonical fingerprint the last recorded write left (a second read,
  of those partitions only: _fingerprints_by_partition). One that differs is dropped: {value: in words} into
  vouched.moved, so the scan compares the partition (a write that committed after the scan's read, whatever its
  audit row's date; a write no audit row records; rows a forged vouch never saw). A scan's vouch recorded with
  another kind of basis (a SHA-256, before the checksum) is dropped too: compared once. Sets vouched.basis: {value:
  its checksum now} for every value: what this scan records as `held` for a vouch it keeps without comparing (equal
  to the one it held against); a partition it compares is recorded with the checksum read with its fingerprint
  (_compare_with_model). Cost: one grouped read of the looked-at partitions (about a fifth of a fingerprint's), and
  a fingerprint of the --since vouches.
#}
{% macro _check_vouch_basis(relation, scope, vouched, values) %}
  {% do vouched.update({'moved': {}, 'basis': {}}) %}
  {% if not values %}{{ return(vouched) }}{% endif %}
  {% set now = dbt_backfill._partition_checksums(relation, scope.material_columns, scope.partition_column,
      dbt_backfill._partition_in(scope.partition_column, values)) %}
  {% for value in values %}{% do vouched.basis.update({value: now.get(value, '0#0')}) %}{% endfor %}
  {% set by_word = [] %}
  {% for value, vouch in vouched.by_value.items() if not vouch.scanned and vouch.get('basis') %}
    {% do by_word.append(value) %}
  {% endfor %}
  {% set written = dbt_backfill._fingerprints_by_partition(relation, scope.material_columns, scope.partition_column,
      dbt_backfill._partition_in(scope.partition_column, by_word)) if by_word else {} %}
  {% set empty = {'row_count': 0, 'sha256': dbt_backfill._sha256_of_text('0:0')} %}
  {% for value, vouch in vouched.by_value.items() | list if vouch.scanned or vouch.get('basis') %}
    {% set held = vouched.basis[value] if vouch.scanned else dbt_backfill._basis_of(written.get(value, empty)) %}
    {% if vouch.get('basis') != held %}
      {% do vouched.moved.update({value: 'it holds ' ~ dbt_backfill._basis_in_words(held) ~ ', not what ' ~ vouch.by
          ~ ' vouched for (' ~ (dbt_backfill._basis_in_words(vouch.basis) if vouch.get('basis')
                                else 'no record of the rows it saw') ~ ')'}) %}
      {% do vouched.by_value.pop(value) %}
    {% endif %}
  {% endfor %}
  {% do dbt_backfill._commit() %}
  {{ return(vouched) }}
{% endmacro %}

{# A basis as a person reads it: "<rows> row(s), checksum <last 12 digits>", or "…, sha256 <first 12 hex>…" #}
{% macro _basis_in_words(basis) %}
  {% if '#' in basis %}
    {% set rows, sum = basis.split('#', 1) %}
    {{ return(rows ~ ' row(s), checksum …' ~ sum[-12:]) }}
  {% endif %}
  {% set rows, sha = (basis ~ ':').split(':')[:2] %}
  {{ return(rows ~ ' row(s), sha256 ' ~ sha[:12] ~ '…') }}
{% endmacro %}
