{#
  A vouch counts only while the partition still holds what it vouched for (docs/DECISIONS.md, issue 54): each vouch
  of `vouched` (_vouched_partitions) that has a basis — a scan's: the rows and SHA-256 the partition held when that
  scan compared it (its `held`); --since's: the fingerprint the last recorded write left — is checked against the
  partition now, in one read of the target grouped by partition (_fingerprints_by_partition). One that differs is
  dropped: {value: in words} into vouched.moved, so the scan compares the partition (a write that committed after
  the scan's read, whatever its audit row's date; a write no audit row records; rows a forged vouch never saw). A
  scan's vouch without a basis (recorded before scans kept one) is dropped too. Sets vouched.basis: {value: the
  partition's rows and SHA-256 now (_basis_of)} for each vouch kept, which this scan records for the next.
  Cost: one grouped read of the vouched partitions of the target; none when nothing vouches.
#}
{% macro _check_vouch_basis(relation, scope, vouched) %}
  {% do vouched.update({'moved': {}, 'basis': {}}) %}
  {% set checked = [] %}
  {% for value, vouch in vouched.by_value.items() if vouch.scanned or vouch.get('basis') %}
    {% do checked.append(value) %}
  {% endfor %}
  {% if not checked %}{{ return(vouched) }}{% endif %}
  {% set now = dbt_backfill._fingerprints_by_partition(relation, scope.material_columns, scope.partition_column,
      dbt_backfill._partition_in(scope.partition_column, checked)) %}
  {% set empty = {'row_count': 0, 'sha256': dbt_backfill._sha256_of_text('0:0')} %}
  {% for value in checked %}
    {% set vouch = vouched.by_value[value] %}
    {% set held = dbt_backfill._basis_of(now.get(value, empty)) %}
    {% if vouch.get('basis') == held %}
      {% do vouched.basis.update({value: held}) %}
    {% else %}
      {% do vouched.moved.update({value: 'it holds ' ~ held.split(':')[0] ~ ' row(s), sha256 ' ~ held.split(':')[1][:12]
          ~ '…, not what ' ~ vouch.by ~ ' vouched for (' ~ (((vouch.basis.split(':')[0] ~ ' row(s), sha256 '
          ~ vouch.basis.split(':')[1][:12] ~ '…') if vouch.get('basis') else 'no record of the rows it saw') ~ ')') }) %}
      {% do vouched.by_value.pop(value) %}
    {% endif %}
  {% endfor %}
  {% do dbt_backfill._commit() %}
  {{ return(vouched) }}
{% endmacro %}
