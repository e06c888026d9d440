{#
  The rows the plan's builds and the apply write, measured once the builds exist (they replace the planner's
  estimates of them in `cost`, which _backfill_cost made before anything was built: an estimate of a filtered query
  can be far off, 709 for a 16-row partition on DuckDB): each build wrote its rows (a and b); the apply writes the
  backup of the rows the partition holds now and then the rows after, and nothing where the partition already holds
  exactly its build (fingerprint and commitment: apply skips it). `cost.measured` names the measured figures.
#}
{% macro _measured_cost(cost, planned) %}
  {% for p in planned %}
    {% set c = cost.partitions[loop.index0] %}
    {% set skipped = p.builds.a.sha256 == p.target_before.sha256 and p.commitment == p.target_before_commitment %}
    {% do c.update({'build_write_rows': p.builds.a.row_count + p.builds.b.row_count,
                    'apply_write_rows': 0 if skipped else p.target_before.row_count + p.builds.a.row_count}) %}
  {% endfor %}
  {% for measure in ['build_write_rows', 'apply_write_rows'] %}
    {% do cost.total.update({measure: cost.partitions | map(attribute=measure) | sum}) %}
  {% endfor %}
  {% do cost.update({'measured': ['build_write_rows', 'apply_write_rows']}) %}
  {{ return(cost) }}
{% endmacro %}
