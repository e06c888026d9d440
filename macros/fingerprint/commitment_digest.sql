{#
  A commitment to the exact multiset of rows of `relation` (or of the rows `where` selects): what an approval binds
  to, and what apply checks on the rows it inserts. Algorithm dbt_backfill/commitment-v1, with the canonical row
  digests of the fingerprint (fingerprint_relation):

    k                = bucket digits: 0 up to 4,096 rows, then one more per factor 16 (at most 4)
    bucket           = the row digest's first k hex digits
    bucket digest    = sha256(the bucket's row digests, sorted, concatenated)
    commitment       = sha256('c1:<row count>:<k>:' || '<bucket>=<bucket digest>' sorted, joined by ',')

  Unlike the fingerprint's sum of 60-bit checksums, which a planner can make collide on purpose (a generalized
  birthday search, minutes), finding two different multisets with one commitment means breaking SHA-256. It sorts
  every row digest, so it costs a sort the fingerprint avoids (bench P1); the buckets keep every aggregated value
  to about 4,096 digests (256 KB) whatever the partition's size. `row_count` is the fingerprint's, taken first.
#}
{% macro commitment_digest(relation, columns, where=none, row_count=none) %}
  {% if row_count is none %}
    {% set row_count = dbt_backfill._execute('select count(*) from ' ~ relation ~ ((' where ' ~ where) if where else '')).rows[0][0] | int %}
  {% endif %}
  {% set sql = dbt_backfill._commitment_sql([dbt_backfill._commitment_branch(relation, columns, where, row_count)]) %}
  {{ return(dbt_backfill._execute(sql).rows[0][0] | string) }}
{% endmacro %}
