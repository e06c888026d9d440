{#
  What the plan says of its columns beyond the counts, one text for the terminal, the written plan and the packet:
  `excluded`: the exclude_columns apply writes unchecked by the fingerprint, with the rows whose excluded values it
  rewrites (change_summary's `excluded`, per partition) — a plan whose other changes are none still writes them;
  `run_level`: the material columns that differ in at least 90% of the compared rows (keys on both sides) of every
  partition with a changed row, two such partitions at least — a value of the whole run (a load time, a MAX over
  the table) that drowns the corrections and may belong in meta.backfill.exclude_columns. Each with `said`, the
  sentence shown. Returns {excluded: {columns, rows, partitions, said} | none, run_level: {columns, partitions,
  said} | none}.
#}
{% macro _column_notes(plan) %}
  {% set excluded_rows, touched = [0], [] %}
  {% for p in plan.partitions if p.changes.get('excluded') %}
    {% do excluded_rows.append(p.changes.excluded) %}{% do touched.append(p.value) %}
  {% endfor %}
  {% set excluded = none %}
  {% if plan.exclude_columns %}
    {% set excluded = {'columns': plan.exclude_columns, 'rows': excluded_rows | sum, 'partitions': touched,
        'said': 'Excluded column(s) ' ~ plan.exclude_columns | join(', ') ~ ': written unchecked (the fingerprint leaves '
                ~ 'them out); apply rewrites them in ' ~ excluded_rows | sum ~ ' row(s) of ' ~ touched | length
                ~ ' partition(s) (the "unchecked" counts), rollback restores them.'} %}
  {% endif %}
  {% set changed = plan.partitions | selectattr('changes.changed') | list %}
  {% set fixed = [plan.partition_by] + plan.business_key %}
  {% set run_level = [] %}
  {% for column in plan.material_columns if column not in fixed and changed | length >= 2 %}
    {% set everywhere = [] %}
    {% for p in changed if p.changes.get('compared') and (p.changes.get('columns') or {}).get(column, 0) >= 0.9 * p.changes.compared %}
      {% do everywhere.append(p.value) %}
    {% endfor %}
    {% if everywhere | length == changed | length %}{% do run_level.append(column) %}{% endif %}
  {% endfor %}
  {% set said = none %}
  {% if run_level %}
    {% set said = 'Run-level column(s)? ' ~ run_level | join(', ') ~ ' changed in at least 90% of the compared rows of '
        ~ 'every changed partition (' ~ changed | length ~ '): a value of the whole run (a load time, a MAX over the '
        ~ 'table) rather than a correction? If so, declare it in meta.backfill.exclude_columns: the plan then counts '
        ~ 'its changes apart and apply writes it unchecked by the fingerprint.' %}
  {% endif %}
  {{ return({'excluded': excluded,
             'run_level': {'columns': run_level, 'partitions': changed | length, 'said': said} if run_level else none}) }}
{% endmacro %}
