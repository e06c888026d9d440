{#
  The read-only half of a backfill, shared by plan_stages (the CLI, which compiles the model with
  `dbt compile --full-refresh`) and plan_backfill (pure dbt): check the partition values and the gates'
  settings, pin the source (two reads, refused if they differ, before anything is built), fingerprint the
  target's current partitions and a control partition outside the scope, read the live job's watermark,
  estimate the cost from the planner, build every partition twice (all a, then all b, one transaction each),
  fingerprint both builds, summarise the changes (bucket digests first), find business keys that would land in
  two partitions and keys a named partition loses to one that is not named, predict the watermark, evaluate the reconciliation gates, read the source a third time, list
  the models downstream, review the six checks and write the plan document. The target is only read.
  Returns the plan as a dict; the caller emits it or records it.
#}
{% macro _plan(run_id, model, target, model_sql, partition_by, business_key, partitions, sources, order_by=[], additive=[],
               exclude_columns=[], stage_schema=none, watermark=none, checks=[], cost_warning={}, allowances={},
               code={}, batch_size=5, commands={}, record_planned=true, approval_ttl=none, input_window=none,
               from_ranges=[], window_proof_max_age=none, prove_window=none) %}
  {% do dbt_backfill.pin_session() %}
  {% set expires_at = dbt_backfill._approval_deadline(approval_ttl) %}
  {% set proof_settings = dbt_backfill._window_proof_settings(window_proof_max_age, prove_window) %}
  {% set node = dbt_backfill._model_node(model) if model else none %}
  {% if node is not none %}{% do dbt_backfill._check_materialization(node, allowances) %}{% endif %}
  {% set target_relation = dbt_backfill._target_relation(target) %}
  {% set target_columns = dbt_backfill._column_names(target_relation) %}
  {% if not target_columns %}
    {% do dbt_backfill._fail(dbt_backfill._relation_name(target_relation) ~ ' does not exist or has no columns: a backfill '
        ~ 'repairs a published table; run the model first. Nothing was changed.') %}
  {% endif %}
  {% set excluded = [] %}
  {% for column in dbt_backfill._columns(target_relation, exclude_columns, 'exclude_columns') %}
    {% do excluded.append(column.name) %}
  {% endfor %}
  {% set material_names = target_columns | reject('in', excluded) | list %}
  {# order_by states which version of a key the model keeps: `<column> [asc|desc]`, each column the target's #}
  {% set order_names = [] %}
  {% for entry in order_by %}
    {% set words = entry.split() %}
    {% if not (words | length in [1, 2]) or (words | length == 2 and (words[1] | lower) not in ['asc', 'desc']) %}
      {% do dbt_backfill._fail('meta.backfill.order_by: ' ~ tojson(entry) ~ ' is not a column optionally followed by asc '
          ~ 'or desc (e.g. `updated_at desc`: the newest version of a key wins). Nothing was changed.') %}
    {% endif %}
    {% do order_names.append(words[0]) %}
  {% endfor %}
  {% do dbt_backfill._columns(target_relation, order_names, 'order_by') %}
  {% set scope = dbt_backfill._backfill_scope(target_relation, partition_by, business_key, additive, material_names) %}
  {% do dbt_backfill._check_partition_values(scope, partitions) %}
  {# values that neither the target nor the model's output holds, found before any stage is built: one read of the
     target, and the model evaluated once only for the values the target lacks. A value only a range names
     (202513 in 202512..202602, a day with no rows) is left out; a value named alone is refused: most often a typo,
     and building it would cost two stages per value before saying so. #}
  {% set vacant = dbt_backfill._vacant_values(target_relation, scope, model_sql, partitions) %}
  {% if vacant %}
    {% set by_range = {} %}
    {% for value in from_ranges %}{% do by_range.update({value: true}) %}{% endfor %}
    {% set alone = vacant | reject('in', by_range) | list %}
    {% if alone %}
      {% do dbt_backfill._fail('partition(s) ' ~ alone[:20] | join(', ')
          ~ (' and ' ~ (alone | length - 20) ~ ' more' if alone | length > 20 else '') ~ ' hold no rows in the target and none in the model\'s output: there is nothing '
          ~ 'to repair. Check the values (and their format). No packet was written and the target is unchanged.') %}
    {% endif %}
    {% set left_out = {} %}
    {% for value in vacant %}{% do left_out.update({value: true}) %}{% endfor %}
    {% set partitions = partitions | reject('in', left_out) | list %}
    {% if not partitions %}
      {% do dbt_backfill._fail('no value of the range(s) holds rows in the target or in the model\'s output ('
          ~ vacant | length ~ ' value(s), ' ~ vacant[0] ~ ' to ' ~ vacant[-1] ~ '): there is nothing to repair. Check the range. '
          ~ 'Nothing was built and the target is unchanged.') %}
    {% endif %}
  {% endif %}
  {% do dbt_backfill._reconciliation_gates(checks, target_relation, scope, []) %}
  {% set sources = sources if sources is not none else dbt_backfill._relations_read(node) %}
  {# what each partition's builds read of the inputs with event_time; the pin below reads the same #}
  {% set windowing = dbt_backfill._input_windows(node, scope, partitions, sources, input_window, model_sql) %}

  {% set first_read = dbt_backfill._fingerprint_sources(sources) %}
  {% set second_read = dbt_backfill._fingerprint_sources(sources) %}
  {% set moved = dbt_backfill._moved_sources(first_read, second_read) %}
  {% if moved %}
    {% set names = [] %}
    {% for m in moved %}{% do names.append(m.relation ~ ': ' ~ m.first ~ ', then ' ~ m.second) %}{% endfor %}
    {% do dbt_backfill._refuse('source_moved',
        'the source changed between two reads (' ~ names | join('; ') ~ '). A column that changes on every read '
        ~ '(clock_timestamp(), now(), random()) cannot be backfilled reproducibly. Nothing was built and the target is unchanged.',
        {'moved': moved, 'reads': [first_read, second_read]}) %}
  {% endif %}

  {% set stage_schema = stage_schema or (target_relation.schema ~ '_backfill') %}
  {# compared case-insensitively: DuckDB and Spark resolve `ANALYTICS` to `analytics`, and where an engine does not,
     refusing is the safe side. Stages beside the published tables would make clean's drops reach among them. #}
  {% if (stage_schema | lower) == (target_relation.schema | lower) %}
    {% do dbt_backfill._fail('meta.backfill.stage_schema (' ~ stage_schema ~ ') is the schema of ' ~ target_relation
        ~ ' itself: stages and backups are kept apart from the published tables. Name another schema. Nothing was built '
        ~ 'and the target is unchanged.') %}
  {% endif %}
  {% set partition_plans = [] %}
  {% for value in partitions %}
    {% do partition_plans.append({
        'value': value,
        'relations': dbt_backfill._stage_relations(target_relation, stage_schema, run_id, loop.index0),
        'target_before': dbt_backfill._fingerprint_in_scope(target_relation, scope, value, true),
    }) %}
  {% endfor %}
  {% set control = dbt_backfill._control_partition(target_relation, scope, partitions) %}
  {% set watermark_before = dbt_backfill.watermark_state(watermark, target_relation) if watermark else none %}
  {% do dbt_backfill._commit() %}
  {% do dbt_backfill._step('estimating the cost with the database planner',
      'estimating the cost with the database planner (EXPLAIN of the model and its sources) failed (see the error '
      ~ 'below). Nothing was built and the target is unchanged.') %}
  {% set cost = dbt_backfill._backfill_cost(model_sql, sources, scope, partition_plans,
      (cost_warning.get('rows') or 100000000) | int, (cost_warning.get('bytes') or 10737418240) | int) %}

  {# recorded before the first stage exists, so a plan that fails, is refused or is killed leaves relations the audit
     trail names: `clean --run` and `clean --orphans` drop them (and only them) #}
  {% do dbt_backfill._ensure_audit_table(target_relation) %}
  {% do dbt_backfill.record_audit_event(target_relation, 'building_stages', run_id, {'model': model,
      'detail': {'stage_schema': stage_schema, 'partitions': partitions | length, 'expires_at': expires_at,
                 'at': modules.datetime.datetime.utcnow().replace(microsecond=0).isoformat() ~ '+00:00'}}) %}
  {% do dbt_backfill._commit() %}
  {# a windowed plan checks its windows through widened ones; it proves them over the whole history when no proof
     recorded for this code can be relied on (_window_proof.sql) #}
  {% set windowed = windowing.mode == 'windowed' %}
  {% set binding = dbt_backfill._window_binding(model_sql, windowing, sources, scope.partition_column.name) if windowed else none %}
  {% set proof = dbt_backfill._window_proof_due(target_relation, binding, proof_settings)
      if windowed else {'due': false, 'why': none, 'last': none} %}
  {% do dbt_backfill._commit() %}
  {% do dbt_backfill._ensure_schema(target_relation.database, stage_schema) %}
  {% do dbt_backfill._commit() %}
  {# when the builds start reading the inputs (the session pinned to UTC): a proof's outcome is ordered by what it
     read, not by when it was recorded (_window_proof_due) #}
  {% set builds_read_at = dbt_backfill._execute('select ' ~ dbt.current_timestamp() ~ ' as bf_now').rows[0]['bf_now'] | string %}
  {# the model's SQL runs in the session as `dbt run` has it; only what is fingerprinted is pinned #}
  {% do dbt_backfill._unpin_session() %}
  {# windowed: every build a reads the inputs within its partition's window; every build b reads them through the
     widened window, or, when this plan proves the windows, is its partition's rows of one build of all named
     partitions from the whole inputs (_prove_input_windows) #}
  {% set proving = windowed and proof.due %}
  {% set whole_build = partition_plans[0].relations.whole %}
  {# the SQL every build runs: the model's, its columns cast to the target's types where they differ within a
     family (set after the first build, which shows the model's types: _target_types.sql) #}
  {% set typed = {'sql': model_sql} %}
  {% for build in ['a', 'b'] %}
    {% if build == 'b' and proving %}
      {% do dbt_backfill._step('building every named partition from the whole inputs (the input windows\' proof)',
          "the model's SQL failed while building the named partitions from the whole inputs (see dbt's error below). "
          ~ "No packet was written and the target is unchanged.") %}
      {% set named = [] %}
      {% for plan in partition_plans %}
        {% do named.append('(' ~ dbt_backfill._partition_predicate(scope.partition_column, plan.value) ~ ')') %}
      {% endfor %}
      {% do dbt_backfill.build_stage(whole_build, typed.sql, named | join(' or ')) %}
    {% endif %}
    {% for plan in partition_plans %}
      {% do dbt_backfill._step('building stage ' ~ build ~ ' of partition ' ~ plan.value
          ~ ('' if not windowed else ' (inputs windowed)' if build == 'a' else ' (from the whole inputs)' if proving
             else ' (inputs in the widened window)'),
          "the model's SQL failed while building stage " ~ build ~ " of partition " ~ plan.value ~ " (see dbt's error "
          ~ "below). No packet was written and the target is unchanged.") %}
      {% set build_sql = typed.sql if not windowed else
          dbt_backfill._windowed_sql(typed.sql, windowing.inputs, windowing.partitions[plan.value]) if build == 'a' else
          'select * from ' ~ whole_build if proving else
          dbt_backfill._windowed_sql(typed.sql, windowing.inputs, windowing.checked[plan.value]) %}
      {% do dbt_backfill.build_stage(plan.relations[build], build_sql,
          dbt_backfill._partition_predicate(scope.partition_column, plan.value)) %}
      {% do dbt_backfill._fault_point('during_build') %}
      {% if build == 'a' and loop.first %}
        {% set stage_columns = dbt_backfill._column_names(plan.relations.a) %}
        {% if stage_columns != target_columns %}
          {% do dbt_backfill._refuse('columns_differ',
              'the model now produces columns ' ~ stage_columns | join(', ') ~ ' but the target has '
              ~ target_columns | join(', ') ~ '. A backfill replaces rows, not the schema: migrate the table first. The target is unchanged.',
              {'model_columns': stage_columns, 'target_columns': target_columns}) %}
        {% endif %}
        {% set recast = dbt_backfill._stage_types_against_target(plan.relations.a, target_relation, target_columns) %}
        {% if recast %}
          {% do typed.update({'sql': dbt_backfill._as_target_types(model_sql, recast, target_columns)}) %}
          {% do dbt_backfill.build_stage(plan.relations.a, dbt_backfill._as_target_types(build_sql, recast, target_columns),
              dbt_backfill._partition_predicate(scope.partition_column, plan.value)) %}
        {% endif %}
      {% endif %}
    {% endfor %}
  {% endfor %}

  {% do dbt_backfill.pin_session() %}
  {% do dbt_backfill._step('fingerprinting and comparing the builds', 'fingerprinting or comparing the builds failed (see '
      ~ 'the error below). No packet was written and the target is unchanged.') %}
  {% set planned = [] %}
  {% set stages = [] %}
  {% for plan in partition_plans %}
    {% set build_a = dbt_backfill._fingerprint_in_scope(plan.relations.a, scope, count_duplicate_keys=true) %}
    {% do stages.append({'value': plan.value, 'relation': plan.relations.a, 'rows': build_a.row_count | int}) %}
    {# b's duplicate keys are not counted: equal fingerprints mean equal rows, hence equal keys, and unequal builds
       are refused whatever their keys (one grouping by key per partition fewer: docs/DECISIONS.md) #}
    {% set build_b = dbt_backfill._fingerprint_in_scope(plan.relations.b, scope) %}
    {% do planned.append({
        'value': plan.value,
        'stage': dbt_backfill._relation_ref(plan.relations.a),
        'stage_b': dbt_backfill._relation_ref(plan.relations.b),
        'backup': dbt_backfill._relation_ref(plan.relations.backup),
        'stage_relation': plan.relations.a,
        'builds': {'a': build_a, 'b': build_b},
        'builds_equal': dbt_backfill._same_fingerprint(build_a, build_b),
        'fingerprint': build_a,
        'commitment': dbt_backfill._commitment_in_scope(plan.relations.a, scope, build_a.row_count),
        'target_before': plan.target_before,
        'target_before_commitment': dbt_backfill._commitment_in_scope(target_relation, scope, plan.target_before.row_count,
                                                                      plan.value, true),
        'changes': dbt_backfill.change_summary(target_relation, plan.relations.a, scope, plan.value),
    }) %}
  {% endfor %}
  {% if proving %}
    {% do adapter.drop_relation(whole_build) %}
    {% do dbt_backfill._commit() %}
  {% endif %}
  {% if windowed %}
    {% do dbt_backfill._prove_input_windows(planned, partition_plans, windowing, typed.sql, scope,
        {'target': target_relation, 'run_id': run_id, 'model': model, 'binding': binding, 'proving': proving,
         'read_at': builds_read_at}) %}
  {% endif %}
  {% set collisions = dbt_backfill.keys_in_two_partitions(target_relation, stages, scope) %}
  {% set watermark_plan = none %}
  {% if watermark_before %}
    {# a state table or query cannot be predicted: apply checks it inside every partition's transaction #}
    {% set watermark_plan = {'before': watermark_before, 'after': none, 'raised': false} %}
    {% if watermark_before.kind == 'column' %}
      {% set predicted = dbt_backfill._watermark_after(watermark_before.column, target_relation, stages, scope) %}
      {% set after_state = {} %}
      {% do after_state.update(watermark_before) %}
      {% do after_state.update({'value': predicted.value}) %}
      {% set watermark_plan = {'before': watermark_before, 'after': after_state, 'raised': predicted.raised} %}
    {% endif %}
  {% endif %}
  {% set gates = dbt_backfill._reconciliation_gates(checks, target_relation, scope, planned) %}
  {% do dbt_backfill._commit() %}
  {# the mirror of the collisions: a key a named partition loses may have moved to a partition that is not named.
     Where the key holds the partition column, a moved row has another key and cannot be told from a deleted one
     (the review says so). #}
  {% set key_holds_partition = (scope.partition_column.name | lower) in (scope.key_columns | map(attribute='name') | map('lower') | list) %}
  {% set losing = [] %}
  {% for p in planned if p.changes.removed > 0 %}{% do losing.append({'value': p.value, 'relation': p.stage_relation}) %}{% endfor %}
  {% set moved_out = [] %}
  {% if losing and not key_holds_partition %}
    {% do dbt_backfill._step('looking for the rows partition(s) ' ~ losing | map(attribute='value') | join(', ') ~ ' lose',
        'looking where a full build places the keys partition(s) ' ~ losing | map(attribute='value') | join(', ')
        ~ ' lose failed (see the error below). No packet was written '
        ~ 'and the target is unchanged.') %}
    {% do dbt_backfill._unpin_session() %}
    {% set moved_out = dbt_backfill.keys_moved_out(target_relation, typed.sql, losing, scope, partitions) %}
    {% do dbt_backfill._commit() %}
    {% do dbt_backfill.pin_session() %}
  {% endif %}
  {% for partition in planned %}{% do partition.pop('stage_relation') %}{% endfor %}

  {% set after_read = dbt_backfill._fingerprint_sources(sources) %}
  {% set moved_during_build = dbt_backfill._moved_sources(first_read, after_read) %}
  {% if moved_during_build %}
    {% do dbt_backfill._refuse('source_moved_during_build',
        'the source changed while the stages were built (' ~ moved_during_build | map(attribute='relation') | join(', ')
        ~ '): the builds cannot be tied to one snapshot. Re-plan when the source is quiet. The target is unchanged.',
        {'moved': moved_during_build}) %}
  {% endif %}

  {% set material = [] %}
  {% for column in scope.material_columns %}{% do material.append(column.name) %}{% endfor %}
  {% set emptied = [] %}
  {% for p in planned if p.fingerprint.row_count == 0 and p.target_before.row_count > 0 %}{% do emptied.append(p.value) %}{% endfor %}
  {% set source_names, pinned = [], [] %}
  {% for source in sources %}
    {% do source_names.append(dbt_backfill._relation_name(dbt_backfill._relation(source))) %}
    {# what apply reads again: the same relations, windowed inputs within the same windows #}
    {% set ref = dbt_backfill._relation_ref(dbt_backfill._relation(source)) %}
    {% if source.get('content') %}{% do ref.update({'content': true}) %}{% endif %}
    {% if source.get('windows') %}
      {% do ref.update({'event_time': source.event_time, 'event_time_type': source.event_time_type, 'windows': source.windows}) %}
    {% endif %}
    {% do pinned.append(ref) %}
  {% endfor %}
  {% set plan = {
      'run_id': run_id,
      'model': model,
      'target': dbt_backfill._relation_ref(target_relation),
      'target_name': dbt_backfill._relation_name(target_relation),
      'adapter': adapter.type(),
      'package_version': dbt_backfill._version(),
      'partition_by': scope.partition_column.name,
      'partition_type': scope.partition_column.data_type,
      'business_key': business_key,
      'order_by': order_by,
      'additive': additive,
      'exclude_columns': exclude_columns,
      'material_columns': material,
      'target_columns': target_columns,
      'stage_schema': stage_schema,
      'audit_relation': dbt_backfill._relation_name(dbt_backfill._audit_relation(target_relation)),
      'code': code,
      'sources': source_names,
      'source': {'relations': source_names, 'reads': [first_read, second_read], 'after_build': after_read,
                 'pinned': pinned, 'windows': dbt_backfill._windows_recorded(windowing, proof, binding)},
      'expires_at': expires_at,
      'partitions': planned,
      'skipped_in_ranges': vacant,
      'key_collisions': collisions,
      'keys_moved_out': moved_out,
      'key_holds_partition': key_holds_partition,
      'watermark': watermark_plan,
      'emptied': emptied,
      'allowances': allowances,
      'cost': cost,
      'gates': gates,
      'control': control,
      'lock': dbt_backfill.scheduled_run_exclusion(node),
      'downstream': dbt_backfill._downstream_models(node, scope.partition_column.name,
          dbt_backfill._type_family(scope.partition_column.data_type)) if node else [],
      'batch_size': batch_size | int,
      'write_unit_problem': dbt_backfill.write_unit_problem(target_relation, scope.partition_column.name),
  } %}
  {% do dbt_backfill._step('reviewing the plan', 'reviewing the plan and writing its document failed (see the error '
      ~ 'below). No packet was written and the target is unchanged.') %}
  {# the other runs over these partitions, and what each did there: the review tells the approver (check 3) #}
  {% do plan.update({'other_runs': dbt_backfill._other_runs_over(dbt_backfill._partition_ledger(target_relation, partitions),
                                                                 run_id, partitions),
                     'protected_unguarded': dbt_backfill._protected_unguarded(node)}) %}
  {% do plan.update({'review': dbt_backfill._review(plan)}) %}
  {% do plan.pop('other_runs') %}{% do plan.pop('protected_unguarded') %}
  {# every partition already holds exactly what its build gives (fingerprint and commitment), and nothing blocks:
     nothing to approve, so the callers write no packet and drop the stages #}
  {% set differing = [] %}
  {% for p in planned if not (p.builds.a.sha256 == p.target_before.sha256 and p.commitment == p.target_before_commitment) %}
    {% do differing.append(p.value) %}
  {% endfor %}
  {% do plan.update({'nothing_to_change': not differing and plan.review.verdict != 'BLOCK'}) %}
  {% do plan.update({'markdown': dbt_backfill._plan_markdown(plan, commands)}) %}

  {% do dbt_backfill._ensure_audit_table(target_relation) %}
  {# `planned` means a packet exists: the pure-dbt path records it here, beside the packet it records next; the CLI
     only after it wrote the packet file (with its SHA-256), so a plan refused in Python is no `planned` row #}
  {% if record_planned and not plan.nothing_to_change %}
    {% do dbt_backfill.record_audit_event(target_relation, 'planned', run_id, {'model': model,
        'fingerprint_after': planned | map(attribute='builds') | map(attribute='a') | map(attribute='sha256') | list,
        'outcome': plan.review.verdict, 'detail': partitions | join(', ')}) %}
  {% endif %}
  {% do dbt_backfill._commit() %}
  {{ return(plan) }}
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

{# A model that declares meta.backfill.protected but has no full_refresh_guard() pre-hook: nothing stops a full
   refresh of it (the review says so, check 3). #}
{% macro _protected_unguarded(node) %}
  {% if node is none %}{{ return(false) }}{% endif %}
  {% set spec = (node.config.meta or {}).get('backfill') or (node.meta or {}).get('backfill') or {} %}
  {% set hooks = node.config.get('pre-hook') or node.config.get('pre_hook') or [] %}
  {% set guarded = [] %}
  {% for hook in hooks if 'full_refresh_guard' in (hook.sql if hook is mapping else hook | string) %}{% do guarded.append(hook) %}{% endfor %}
  {{ return(spec.get('protected') is true and not guarded) }}
{% endmacro %}

{# The values of `values` (each stepped over by a range) that neither the target nor the model's output holds: one
   query, the model's SQL filtered to those values, evaluated once. #}
{% macro _vacant_values(target_relation, scope, model_sql, values) %}
  {% if not values %}{{ return([]) }}{% endif %}
  {% do dbt_backfill._step('finding the values that hold no rows', 'reading which values the target or the model\'s '
      ~ 'output holds failed (see the error below). Nothing was built and the target is unchanged.') %}
  {% set missing = dbt_backfill._values_held(target_relation, scope, values, false) %}
  {% if missing %}
    {% set missing = dbt_backfill._values_held('(' ~ dbt_backfill._strip_statement_end(model_sql) ~ ') as bf_model', scope,
                                                missing, false) %}
  {% endif %}
  {% do dbt_backfill._commit() %}
  {{ return(missing) }}
{% endmacro %}

{# The values `relation` (a relation, or a parenthesised query with an alias) holds, or with held=false the ones it
   does not, in the order given: one statement, the values as literals of the column's own type. #}
{% macro _values_held(relation, scope, values, held=true) %}
  {% set column = adapter.quote(scope.partition_column.name) %}
  {% set literals = [] %}
  {% for value in values %}
    {% do literals.append('cast(' ~ dbt_backfill._sql_literal(value) ~ ' as ' ~ scope.partition_column.data_type ~ ')') %}
  {% endfor %}
  {% set found = {} %}
  {% for row in dbt_backfill._execute('select distinct cast(' ~ column ~ ' as ' ~ dbt.type_string() ~ ') as bf_value from '
                                      ~ relation ~ ' where ' ~ column ~ ' in (' ~ literals | join(', ') ~ ')').rows %}
    {% do found.update({row[0] | string: true}) %}
  {% endfor %}
  {{ return(values | select('in', found) | list if held else values | reject('in', found) | list) }}
{% endmacro %}
