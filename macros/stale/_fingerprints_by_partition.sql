{# The canonical fingerprint of each partition of `from` (a relation, or any FROM item) that `where` selects, in one
   scan grouped by the partition column: {partition text: {row_count, sha256}}, the sha256 fingerprint_relation gives
   for that partition alone (same row digest, same summary). `columns`: the material columns, typed as the rows are
   to be read (the stale scan types both sides by the target's columns). `checksum`: each also gets `checksum`, its
   rows and _partition_checksums' sum read in the same statement, so of the very rows fingerprinted (what a scan
   records as the basis of a vouch for a partition it compared). #}
{% macro _fingerprints_by_partition(from, columns, partition_column, where, checksum=false) %}
  {% set string_type = dbt.type_string() %}
  {% set family = dbt_backfill._type_family(partition_column.data_type) %}
  {% set sql %}
    select bf_partition, bf_rows, {{ dbt_backfill.sha256_hex('bf_summary') }} as bf_sha256{{ ', bf_sum' if checksum }}
    from (
      select bf_partition, cast(count(*) as {{ string_type }}) as bf_rows,
             {{ dbt_backfill._rows_summary('bf_row_digest') }} as bf_summary
             {%- if checksum %}, cast(sum(bf_row_hash) as {{ string_type }}) as bf_sum{% endif %}
      from (
        select {{ adapter.quote(partition_column.name) }} as bf_partition,
               {{ dbt_backfill._row_digest_of_columns(columns) }} as bf_row_digest
               {%- if checksum %}, {{ dbt_backfill._row_hash(columns) }} as bf_row_hash{% endif %}
        from {{ from }}
        where {{ where }}
      ) bf_rows
      group by bf_partition
    ) bf_groups
  {% endset %}
  {% set found = {} %}
  {% for row in dbt_backfill._execute(sql).rows %}
    {% set value = 'NULL' if row['bf_partition'] is none else dbt_backfill._partition_text(row['bf_partition'], family) %}
    {% do found.update({value: {'row_count': row['bf_rows'] | int, 'sha256': row['bf_sha256'] | string}}) %}
    {% if checksum %}{% do found[value].update({'checksum': (row['bf_rows'] | string) ~ '#' ~ row['bf_sum']}) %}{% endif %}
  {% endfor %}
  {{ return(found) }}
{% endmacro %}
