{#
  Build every partition twice: all builds a, then all builds b, each one statement (build_stage), in the session
  as `dbt run` has it (the model's SQL runs unpinned; only what is fingerprinted is pinned, and the caller pins
  again). Windowed (`windowing.mode`): every build a reads the inputs within its partition's window; every build b
  reads them through the widened window, or, when this plan proves the windows (`proving`), is its partition's rows
  of one build of all named partitions from the whole inputs (_build_whole_inputs, _prove_input_windows).
  The stage schema is made first. Returns {sql: the SQL every build ran (the model's, its columns cast to the
  target's types where they differ within a family: _type_stages_as_target), read_at: when the builds started
  reading the inputs (the session pinned to UTC): a proof's outcome is ordered by what it read, not by when it was
  recorded (_window_proof_due)}.
#}
{% macro _build_stages(target_relation, target_columns, stage_schema, partition_plans, windowing, proving, model_sql, scope) %}
  {% do dbt_backfill._ensure_schema(target_relation.database, stage_schema) %}
  {% do dbt_backfill._commit() %}
  {% set builds_read_at = dbt_backfill._execute('select ' ~ dbt.current_timestamp() ~ ' as bf_now').rows[0]['bf_now'] | string %}
  {% do dbt_backfill._unpin_session() %}
  {% set windowed = windowing.mode == 'windowed' %}
  {% set whole_build = partition_plans[0].relations.whole %}
  {# set after the first build, which shows the model's types #}
  {% set typed = {'sql': model_sql} %}
  {% for build in ['a', 'b'] %}
    {% if build == 'b' and proving %}
      {% do dbt_backfill._build_whole_inputs(whole_build, typed.sql, partition_plans, scope) %}
    {% endif %}
    {% for plan in partition_plans %}
      {% do dbt_backfill._progress('building stage ' ~ build, plan.value, loop.index0, loop.length) %}
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
        {% do dbt_backfill._type_stages_as_target(plan, build_sql, typed, model_sql, scope, target_relation, target_columns) %}
      {% endif %}
    {% endfor %}
    {# each build's stages committed together where build_stage leaves it to its caller (DuckDB), builds a before
       builds b begin: the two builds are two transactions, so a model that reads the transaction's time (now()) gives
       two different builds, as two runs would #}
    {% do dbt_backfill._commit() %}
    {% do dbt_backfill._fault_point('between_builds') %}
  {% endfor %}
  {{ return({'sql': typed.sql, 'read_at': builds_read_at}) }}
{% endmacro %}

{# The proof's build: every named partition from the whole inputs, in one build (`whole_build`), whose rows of each
   partition are that partition's build b. #}
{% macro _build_whole_inputs(whole_build, model_sql, partition_plans, scope) %}
  {% do dbt_backfill._step('building every named partition from the whole inputs (the input windows\' proof)',
      "the model's SQL failed while building the named partitions from the whole inputs (see dbt's error below). "
      ~ "No packet was written and the target is unchanged.") %}
  {% set named = [] %}
  {% for plan in partition_plans %}
    {% do named.append('(' ~ dbt_backfill._partition_predicate(scope.partition_column, plan.value) ~ ')') %}
  {% endfor %}
  {% do dbt_backfill.build_stage(whole_build, model_sql, named | join(' or ')) %}
{% endmacro %}

{# After the first build a: the model must give the target's columns (`columns_differ` otherwise: a backfill replaces
   rows, not the schema), and where it gives another type of the same family, every build's SQL casts its columns to
   the target's types (`typed.sql` updated; _stage_types_against_target) and this first stage is built again so. #}
{% macro _type_stages_as_target(plan, build_sql, typed, model_sql, scope, target_relation, target_columns) %}
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
{% endmacro %}
