{#
  What a plan is asked for, read one way for both paths before anything is built: the model's meta.backfill with
  the CLI's overrides (_backfill_spec), whether its materialization can be backfilled (_check_materialization), the
  partition values with their ranges expanded (_partition_items, _expanded_partitions), each named once, and the
  run's id. The CLI calls it through resolve_plan, pure dbt's plan_backfill directly. Reads nothing but a partition
  column's type (only for a value YAML did not read as text). Returns {spec, partitions, from_ranges, run_id}:
  from_ranges are the values only a range names, which the plan leaves out when no side holds them (_plan).
#}
{% macro _resolve_plan(node, partitions, overrides={}, allowances={}) %}
  {% set meta = dbt_backfill._meta_backfill(node) %}
  {% set spec = dbt_backfill._backfill_spec(node.name, meta, overrides) %}
  {% do dbt_backfill._check_materialization(node, allowances) %}
  {# never trimmed: the round trip through the column's type refuses a value it would rewrite (_check_partition_values) #}
  {% set items = dbt_backfill._partition_items(partitions, spec.partition_by,
      api.Relation.create(database=node.database, schema=node.schema, identifier=node.alias or node.name)) %}
  {% set values = dbt_backfill._expanded_partitions(items) %}
  {% do dbt_backfill._refuse_repeated_partitions(values) %}
  {% set named_alone = {} %}  {# a map: `reject('in', ...)` over a list would cost the square of the values #}
  {% for item in items if '..' not in item or dbt_backfill._quoted_value(item) is not none %}
    {% do named_alone.update({dbt_backfill._expanded_partitions([item])[0]: true}) %}
  {% endfor %}
  {{ return({'spec': spec, 'partitions': values, 'from_ranges': values | reject('in', named_alone) | list,
             'run_id': dbt_backfill._new_run_id()}) }}
{% endmacro %}

{#
  What a backfill of the model would mean, from how dbt materializes it. A view runs its SQL on every read and an
  ephemeral model has no relation: both are always current, so there is nothing to repair. A table is rebuilt
  whole by its next run, which replaces whatever a backfill wrote: planned only when the caller says why
  (allowances.table_model, from --allow-table / allow_table), and the reason is kept in the packet. Incremental
  models, and materializations dbt-backfill does not know, are planned.
#}
{% macro _check_materialization(node, allowances) %}
  {% set materialized = node.config.materialized %}
  {% if materialized in ('view', 'ephemeral') %}
    {% do dbt_backfill._fail(node.name ~ ' is materialized as ' ~ ('a view: it runs its SQL on every read' if materialized == 'view'
        else 'ephemeral: it has no table, its SQL is inlined where it is read') ~ ', so it is always current and there is '
        ~ 'nothing to repair. Nothing was changed.') %}
  {% elif materialized == 'table' and not allowances.get('table_model') %}
    {% do dbt_backfill._fail(node.name ~ ' is materialized as a table: its next `dbt run` rebuilds it whole from its '
        ~ 'sources, replacing whatever a backfill writes (rebuilding it is the repair). To replace partitions until then, '
        ~ 'say why: --allow-table "<reason>" (pure dbt: allow_table: <reason>), kept in the packet. Nothing was changed.') %}
  {% endif %}
{% endmacro %}
