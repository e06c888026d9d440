{#
  The windows' check, on every windowed plan and every partition: build a read the inputs within the partition's
  window, build b read them through the widened window (`checked`) or, when the plan proves the windows
  (`run.proving`), is the partition's rows of one build from the whole inputs. Equal, the window holds for that
  partition (and the model gave the same rows twice). Where they differ the partition is built windowed once more:
  equal to build a, its window is too narrow (its rows need inputs outside it) and the plan is refused with the
  counts that differ for every such partition; different, the model is not deterministic, and the plan's
  two-builds check says so (build b is then the second windowed build).
  The excluded columns are compared too, by the commitment (_window_excluded_check): a window is proven for every
  column apply writes, or the plan says for which it is not.
  The outcome is recorded (`window_proven`, _record_window_proof): a proof that passed, and any window found too
  narrow, by the proof or the widened check, which then holds until a proof passes.
  `run`: {target, run_id, model, binding, proving, read_at}.
#}
{% macro _prove_input_windows(planned, partition_plans, windowing, model_sql, scope, run) %}
  {% if scope.get('excluded_names') %}{% do windowing.update({'excluded_compared': true}) %}{% endif %}
  {% set unsettled = [] %}
  {% set narrow = [] %}
  {% for plan in partition_plans %}
    {% set entry = planned[loop.index0] %}
    {% if not entry.builds_equal %}
      {% set window = windowing.partitions[plan.value] %}
      {% do dbt_backfill._step('comparing the windowed and the whole build of partition ' ~ plan.value,
          'comparing the windowed and the whole build of partition ' ~ plan.value ~ ' failed (see the error below). No '
          ~ 'packet was written and the target is unchanged.') %}
      {% set differences = dbt_backfill.change_summary(plan.relations.b, plan.relations.a, scope, plan.value, 3) %}
      {% set whole = entry.builds.b %}
      {% set read = windowing.checked[plan.value] %}
      {% do dbt_backfill._unpin_session() %}
      {% do dbt_backfill.build_stage(plan.relations.b, dbt_backfill._windowed_sql(model_sql, windowing.inputs, window),
                                     dbt_backfill._partition_predicate(scope.partition_column, plan.value)) %}
      {% do dbt_backfill._commit() %}
      {% do dbt_backfill.pin_session() %}
      {% set again = dbt_backfill._fingerprint_in_scope(plan.relations.b, scope) %}
      {% if dbt_backfill._same_fingerprint(entry.builds.a, again) %}
        {% set keys = [] %}
        {% for sampled in differences.sample %}{% do keys.append(sampled.key) %}{% endfor %}
        {% for key in (differences.added_keys or []) + (differences.removed_keys or []) %}{% do keys.append(key) %}{% endfor %}
        {% do narrow.append({'partition': plan.value, 'window': window, 'windowed_rows': entry.builds.a.row_count,
            'whole_rows': whole.row_count, 'added': differences.added, 'removed': differences.removed,
            'changed': differences.changed, 'keys': keys[:5],
            'read_by_b': 'from the whole inputs' if run.proving else 'read within [' ~ read.start ~ ', ' ~ read.end ~ ')'}) %}
      {% else %}
        {% do entry.builds.update({'b': again}) %}
        {% do unsettled.append(plan.value) %}
      {% endif %}
    {% elif scope.get('excluded_names') %}
      {% do dbt_backfill._window_excluded_check(entry, plan, windowing, model_sql, scope, run, narrow) %}
    {% endif %}
  {% endfor %}
  {% if run.proving and not narrow and not unsettled and not windowing.get('excluded_unsettled') %}
    {% do dbt_backfill._record_window_proof(run.target, run.run_id, run.model, run.binding,
        partition_plans | map(attribute='value') | list, true, 'whole', run.read_at) %}
  {% endif %}
  {% if narrow %}
    {% do dbt_backfill._record_window_proof(run.target, run.run_id, run.model, run.binding,
        narrow | map(attribute='partition') | list, false, 'whole' if run.proving else 'widened', run.read_at) %}
    {% set inputs, described = [], [] %}
    {% for input in windowing.inputs %}
      {% do inputs.append(dbt_backfill._relation_name(dbt_backfill._relation(input)) ~ ' by ' ~ input.event_time) %}
    {% endfor %}
    {% for n in narrow %}
      {% do described.append(n.partition ~ ': read within [' ~ n.window.start ~ ', ' ~ n.window.end ~ ') it gives '
          ~ n.windowed_rows ~ ' rows, ' ~ n.read_by_b ~ ' ' ~ n.whole_rows ~ '; by business key the windowed build has '
          ~ n.added ~ ' row(s) the ' ~ ('whole' if run.proving else 'wider') ~ ' build lacks, lacks ' ~ n.removed ~ ' and differs in ' ~ n.changed
          ~ (', and in excluded column(s) ' ~ scope.excluded_names | join(', ') ~ ' in ' ~ n.excluded ~ ' row(s)' if n.get('excluded') else '')
          ~ (' (' ~ n['keys'] | join(', ') ~ ')' if n['keys'] else '')) %}
    {% endfor %}
    {% do dbt_backfill._refuse('input_window_too_narrow',
        'the input window does not hold for partition(s) ' ~ narrow | map(attribute='partition') | join(', ') ~ ' ('
        ~ inputs | join(', ') ~ '; ' ~ windowing.declared_by ~ ': ' ~ windowing.before ~ ' day(s) before, '
        ~ windowing.after ~ ' after): ' ~ described | join('; ') ~ '. Their rows need inputs outside the window: widen '
        ~ 'meta.backfill.input_window ({before: N, after: N} days), or set the inputs\' event_time to the business date the '
        ~ 'partition is derived from. A windowed build is never published unproven' ~ ('' if run.proving else
        ' (the window\'s last proof over the whole history no longer stands: the next plan makes it again)')
        ~ '. No packet was written and the target is unchanged.', {'partitions': narrow}) %}
  {% endif %}
{% endmacro %}

{#
  A partition whose builds agree on the fingerprint, on a plan with exclude_columns: the excluded columns are
  compared too (the commitments of build a and build b: every column). Where they differ, the partition is built
  windowed once more: equal to build a in every column, its window is too narrow for the excluded columns (a value
  of the whole history, a MAX over every row) and it joins `narrow`, refused with the rest; different, the excluded
  columns are not deterministic and no build can prove the window for them: `windowing.excluded_unsettled` names
  the partition, the plan's evidence says so (_window_evidence) and no proof is recorded as passed.
#}
{% macro _window_excluded_check(entry, plan, windowing, model_sql, scope, run, narrow) %}
  {% set b = entry.builds.b %}
  {% if dbt_backfill._commitment_in_scope(plan.relations.b, scope, b.row_count) == entry.commitment %}{{ return(none) }}{% endif %}
  {% set window = windowing.partitions[plan.value] %}
  {% set differences = dbt_backfill.change_summary(plan.relations.b, plan.relations.a, scope, plan.value, 3,
                                                    excluded=scope.excluded_names) %}
  {% set read = windowing.checked[plan.value] %}
  {% do dbt_backfill._unpin_session() %}
  {% do dbt_backfill.build_stage(plan.relations.b, dbt_backfill._windowed_sql(model_sql, windowing.inputs, window),
                                 dbt_backfill._partition_predicate(scope.partition_column, plan.value)) %}
  {% do dbt_backfill._commit() %}
  {% do dbt_backfill.pin_session() %}
  {% if dbt_backfill._commitment_in_scope(plan.relations.b, scope, b.row_count) == entry.commitment %}
    {% do narrow.append({'partition': plan.value, 'window': window, 'windowed_rows': entry.builds.a.row_count,
        'whole_rows': b.row_count, 'added': 0, 'removed': 0, 'changed': 0, 'excluded': differences.excluded,
        'keys': differences.sample | map(attribute='key') | list,
        'read_by_b': 'from the whole inputs' if run.proving else 'read within [' ~ read.start ~ ', ' ~ read.end ~ ')'}) %}
  {% else %}
    {% do windowing.update({'excluded_unsettled': windowing.get('excluded_unsettled', []) + [plan.value]}) %}
  {% endif %}
{% endmacro %}
