{# At apply, inside a partition's transaction: the commitment of the rows about to be written (`with_commitment`) and
   the keys of them the target now also holds outside the approved partitions `values` (given), as
   _commitment_in_scope and _keys_also_outside read them; where both are wanted, in one statement: one round trip a
   partition instead of two (issue 57). {commitment, twice (the keys found)}, each none where not wanted. The keys'
   statement, a sample ordered by key, is joined to the commitment's one row, so a partition with no such key still
   gives the commitment (its key columns null). Spark reads them in two, as before: a join without a condition is an
   implicit cartesian product there, which a cluster may refuse (spark.sql.crossJoin.enabled false). #}
{% macro _commitment_and_keys_outside(rows_relation, target_relation, scope, partition_value, row_count, with_commitment,
                                      values) %}
  {% if not with_commitment or values is none or adapter.type() == 'spark' %}
    {{ return({'commitment': dbt_backfill._commitment_in_scope(rows_relation, scope, row_count, partition_value, true)
                             if with_commitment else none,
               'twice': dbt_backfill._keys_also_outside(rows_relation, target_relation, scope, values, row_count)
                       if values is not none else none}) }}
  {% endif %}
  {% set committed = dbt_backfill._commitment_in_scope_sql(rows_relation, scope, row_count, partition_value, true) %}
  {% set keys = dbt_backfill._keys_also_outside_sql(rows_relation, target_relation, scope, values, row_count) %}
  {% set order = [] %}
  {% for column in scope.key_columns %}{% do order.append('bf_k.bf_key_' ~ loop.index) %}{% endfor %}
  {% set rows = dbt_backfill._execute('select bf_c.bf_commitment, bf_k.* from (' ~ committed ~ ') bf_c left join ('
      ~ keys ~ ') bf_k on 1 = 1 order by ' ~ order | join(', ')).rows %}
  {{ return({'commitment': rows[0]['bf_commitment'] | string, 'twice': dbt_backfill._keys_found(rows, scope.key_columns)}) }}
{% endmacro %}
