{#
  The canonical fingerprint of a relation, or of the rows of it that `where` selects (one partition).

    row digest       = sha256(canonical text of the material columns, by name order, joined by '|')
    bucket           = first 3 hex digits of sha256(canonical business key)   (4,096 buckets)
    bucket digest    = sha256(the bucket's row digests, concatenated in ascending order)
    partition digest = sha256(lines 'bucket:rows:digest', in bucket order, joined by newline)

  Same logical rows -> same sha256, whatever the physical order, column order or storage. No single value
  grows with the partition (a bucket holds 1/4096 of it), which keeps PostgreSQL far from its 1 GB value limit.
  Ordering a bucket's digests by the digests themselves makes the digest a function of the multiset of rows;
  the business-key order of the first proposal added a second sort key and changed nothing else.
  Without a business key (source relations) the row digest itself picks the bucket.

  Returns {row_count, null_keys, duplicate_keys, totals: {column: exact decimal text}, sha256, algorithm}.
  The engine-specific parts are the leaves canonical_text and sha256_hex; this composition is plain SQL.
#}
{% macro fingerprint_relation(relation, columns, key_columns=[], additive_columns=[], where=none) %}
  {{ return(adapter.dispatch('fingerprint_relation', 'dbt_backfill')(relation, columns, key_columns, additive_columns, where)) }}
{% endmacro %}

{% macro default__fingerprint_relation(relation, columns, key_columns, additive_columns, where) %}
  {% set string_type = dbt.type_string() %}
  {% set row_fields = [] %}
  {% set has_float = [] %}
  {% for column in columns %}
    {% do row_fields.append(dbt_backfill.canonical_text(column.name, column.data_type)) %}
    {% if dbt_backfill._type_family(column.data_type) == 'float' %}{% do has_float.append(column.name) %}{% endif %}
  {% endfor %}
  {% set key_fields = [] %}
  {% set null_key_tests = [] %}
  {% for column in key_columns %}
    {% do key_fields.append(dbt_backfill.canonical_text(column.name, column.data_type)) %}
    {% do null_key_tests.append(adapter.quote(column.name) ~ ' is null') %}
  {% endfor %}
  {% set row_digest = dbt_backfill.sha256_hex(row_fields | join(" || '|' || ")) %}

  {% set sql %}
    with canonical_rows as (
      select
        {{ row_digest }} as bf_row_digest,
        {% if key_columns %}
        {{ key_fields | join(" || '|' || ") }} as bf_key,
        ({{ null_key_tests | join(' or ') }}) as bf_null_key
        {% else %}
        cast(null as {{ string_type }}) as bf_key,
        false as bf_null_key
        {% endif %}
        {% for column in additive_columns %}
        , {{ adapter.quote(column.name) }} as bf_additive_{{ loop.index }}
        {% endfor %}
      from {{ relation }}
      {% if where %}where {{ where }}{% endif %}
    ),
    bucketed as (
      select
        bf_row_digest,
        {% if key_columns %}{{ dbt_backfill._bucket_of('bf_key') }}{% else %}substr(bf_row_digest, 1, 3){% endif %} as bf_bucket
      from canonical_rows
    ),
    buckets as (
      select
        bf_bucket,
        count(*) as bf_rows,
        {{ dbt_backfill._bucket_digest('bf_row_digest') }} as bf_bucket_digest
      from bucketed
      group by bf_bucket
    ),
    duplicated_keys as (
      select bf_key from canonical_rows where bf_key is not null and not bf_null_key
      group by bf_key having count(*) > 1
    )
    select
      cast((select count(*) from canonical_rows) as {{ string_type }}) as row_count,
      cast((select count(*) from canonical_rows where bf_null_key) as {{ string_type }}) as null_keys,
      cast((select count(*) from duplicated_keys) as {{ string_type }}) as duplicate_keys,
      {% for column in additive_columns %}
      cast((select coalesce(sum(bf_additive_{{ loop.index }}), 0) from canonical_rows) as {{ string_type }}) as total_{{ loop.index }},
      {% endfor %}
      (select {{ dbt_backfill.sha256_hex("coalesce(string_agg(bf_bucket || ':' || cast(bf_rows as " ~ string_type ~ ") || ':' || bf_bucket_digest, chr(10) order by bf_bucket), '')") }}
         from buckets) as partition_digest
  {% endset %}

  {% set row = dbt_backfill._execute(sql).rows[0] %}
  {% set totals = {} %}
  {% for column in additive_columns %}
    {% do totals.update({column.name | lower: row['total_' ~ loop.index] | string}) %}
  {% endfor %}
  {% set algorithm = 'dbt_backfill/v1' ~ ('+float:' ~ adapter.type() if has_float else '') %}
  {{ return({
      'row_count': row['row_count'] | int,
      'null_keys': row['null_keys'] | int,
      'duplicate_keys': row['duplicate_keys'] | int,
      'totals': totals,
      'sha256': row['partition_digest'] | string,
      'algorithm': algorithm,
  }) }}
{% endmacro %}
