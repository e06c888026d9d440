{#
  What the backfill will read and write, from the planner's estimates (estimate_query), before anything is built:
    builds  every partition is built twice, and each build evaluates the whole model and filters the partition,
            so each build reads every relation the model reads (an upper bound: a planner may push the filter
            down) and writes the partition's estimated rows;
    apply   reads the stage and the target's partition, writes the backup and the new rows.
  Returns {partitions: [{value, build_read_rows, build_read_bytes, build_write_rows, build_write_bytes,
  apply_write_rows}], total: {...}, thresholds: {rows, bytes}, over: [what exceeds its threshold]}.
  A byte figure is none where the engine gives no row width (DuckDB). The thresholds are meta.backfill.cost_warning's
  (rows: 100,000,000 and bytes: 10 GiB unless declared). Once built, the rows written are measured instead
  (_measured_cost).
#}
{% macro _backfill_cost(model_sql, sources, scope, partition_plans, cost_warning) %}
  {% do dbt_backfill._step('estimating the cost with the database planner',
      'estimating the cost with the database planner (EXPLAIN of the model and its sources) failed (see the error '
      ~ 'below). Nothing was built and the target is unchanged.') %}
  {% set warn_rows = (cost_warning.get('rows') or 100000000) | int %}
  {% set warn_bytes = (cost_warning.get('bytes') or 10737418240) | int %}
  {% set source_estimates = [] %}
  {% for source in sources %}
    {% do source_estimates.append(dbt_backfill.estimate_query('select * from ' ~ dbt_backfill._relation(source))) %}
  {% endfor %}
  {% set read_rows = none if (source_estimates | selectattr('rows', 'none') | list) else source_estimates | map(attribute='rows') | sum %}
  {% set read_bytes = none if (source_estimates | selectattr('bytes', 'none') | list) else source_estimates | map(attribute='bytes') | sum %}

  {% set partitions = [] %}
  {% for plan in partition_plans %}
    {% set output = dbt_backfill.estimate_query(dbt_backfill._partition_rows_of(model_sql,
        dbt_backfill._partition_predicate(scope.partition_column, plan.value))) %}
    {% do partitions.append({
        'value': plan.value,
        'build_read_rows': none if read_rows is none else 2 * read_rows,
        'build_read_bytes': none if read_bytes is none else 2 * read_bytes,
        'build_write_rows': none if output.rows is none else 2 * output.rows,
        'build_write_bytes': none if output.bytes is none else 2 * output.bytes,
        'apply_write_rows': none if output.rows is none else plan.target_before.row_count + output.rows,
    }) %}
  {% endfor %}
  {% do dbt_backfill._commit() %}

  {% set total = {} %}
  {% for measure in ['build_read_rows', 'build_read_bytes', 'build_write_rows', 'build_write_bytes', 'apply_write_rows'] %}
    {% set values = partitions | map(attribute=measure) | list %}
    {% do total.update({measure: none if (values | select('none') | list) else values | sum}) %}
  {% endfor %}
  {% set over = [] %}
  {% if total.build_read_rows is not none and total.build_read_rows > warn_rows %}
    {% do over.append('the builds read an estimated ' ~ total.build_read_rows ~ ' rows (threshold ' ~ warn_rows ~ ')') %}
  {% endif %}
  {% if total.build_read_bytes is not none and total.build_read_bytes > warn_bytes %}
    {% do over.append('the builds read an estimated ' ~ dbt_backfill._human_bytes(total.build_read_bytes) ~ ' (threshold '
        ~ dbt_backfill._human_bytes(warn_bytes) ~ ')') %}
  {% endif %}
  {{ return({'partitions': partitions, 'total': total, 'thresholds': {'rows': warn_rows, 'bytes': warn_bytes},
             'over': over, 'source': 'EXPLAIN on ' ~ adapter.type()}) }}
{% endmacro %}
