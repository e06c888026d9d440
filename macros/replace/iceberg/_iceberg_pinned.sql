{# The target as it stood at one snapshot, as a relation the fingerprint, commitment and key macros read like any
   other: `<target> version as of <snapshot id>` — pinned by id, not by a ref's name, so what is read is that
   snapshot's rows whatever a ref points at afterwards. With `where` (one partition's predicate), only those rows,
   as a subquery: what apply reads as "the rows to write" must be that partition's alone (_keys_also_outside reads
   the whole relation). Its columns are the target's (a snapshot of the same table; the schema of a branch this run
   made is the table's), remembered for the invocation (_relation_columns): Spark's DESCRIBE takes neither. #}
{% macro _iceberg_pinned(target_relation, snapshot_id, where=none) %}
  {% set at = target_relation ~ ' version as of ' ~ (snapshot_id | int) %}
  {% set pinned = api.Relation.create(database=none, schema=none, type='table',
      identifier=('(select * from ' ~ at ~ ' where ' ~ where ~ ')') if where else at) %}
  {% do graph.setdefault('dbt_backfill_columns', {}).setdefault(invocation_id, {}).update(
      {dbt_backfill._columns_key(pinned): dbt_backfill._relation_columns(target_relation)}) %}
  {{ return(pinned) }}
{% endmacro %}
