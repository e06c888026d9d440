{#
  Which published partitions of a model no longer equal what its SQL builds now from its current inputs
  (`dbt-backfill stale MODEL`, and pure dbt). Only reads the target and the inputs; writes one audit row
  (`stale_scan`: what it found, and what the next scan starts from). Steps, in stale/:
    the partitions to look at (_stale_scope); what vouches for each, and since when (_vouched_partitions: the last
    scan, the audit trail's writes, --since; each held against what the partition holds now: _check_vouch_basis);
    what changed in each input with a change column since then, by day of
    its event_time (_input_changes: one scan of the input); the candidates, through each partition's input window
    (_stale_candidates), and the days after the target's last that changed (_days_after_the_target); the candidates'
    rows as the model builds them and as the target holds them, by fingerprint, their keys followed to every other
    partition that holds them, compared too (_compare_following_keys); for each that differs, by business key
    (_stale_details); where keys moved, the partitions the repair names with them and whether its input windows
    reach there (_window_for_moved_keys: else the declaration the plan needs first); what backs the windows it
    followed changes through (_window_proof_said: plan's recorded proof for this code, or that there is none).
  Cost grows with the candidates (with the change, where every input declares a change column), not with the history,
  plus one grouped read of a checksum of the looked-at partitions (_check_vouch_basis: each partition's rows, which
  a write after a vouch changes, as `partitions` reads them) and one join of the target's keys to the built ones (_compare_following_keys; the candidates built again only where a key moved out of them).
  Logs one line per stale partition and the plan that repairs them; emits `stale` (see _stale_result). Fails the
  operation when any partition is stale, unless `fail_when_stale` is false (the CLI sets its own exit status).

  dbt run-operation dbt_backfill.find_stale --args '{model: fct_trips}'
  optional: partitions: 2026-03-01..2026-03-31 (only these, a value the target lacks included: a gap if the model
  builds rows there); since: "2026-03-05T08:00" (for this scan, partitions no recorded write reached since are taken as
  right then, unless a later scan vouches); model_sql: the model compiled by `dbt compile --full-refresh` (the CLI
  passes it for a model of an installed package, whose vars a run-operation cannot read; a vouch binds this SQL's
  hash, so SQL other than the model's own vouches for nothing a plan of the model relies on)
#}
{% macro find_stale(model, partitions=none, since=none, fail_when_stale=true, model_sql=none) %}
  {% if not execute %}{{ return('') }}{% endif %}
  {% if adapter.type() not in ('postgres', 'duckdb') %}
    {# its session table and its change scan are proven on these two (docs/DECISIONS.md, row 112) #}
    {% do dbt_backfill._fail('stale scans run on PostgreSQL and DuckDB; on ' ~ adapter.type() ~ ' compare a partition '
        ~ 'with `dbt-backfill plan MODEL --partitions VALUE`, which reports it unchanged when it is not stale. '
        ~ 'Nothing was read.') %}
  {% endif %}
  {# an empty --since is bad input, as plan takes it, never "no --since" #}
  {% if since is not none %}{% do dbt_backfill._parsed_instant(since, '--since') %}{% endif %}
  {% do dbt_backfill.pin_session() %}
  {% set published = dbt_backfill._published_model(model) %}
  {% set relation, scope, node = published.relation, published.scope, published.node %}
  {% set read_at = dbt_backfill._read_instant() %}
  {% set looked_at = dbt_backfill._stale_scope(relation, scope, partitions) %}
  {% set values = looked_at['values'] %}
  {% set model_sql = model_sql or dbt_backfill._render_model_sql(node) %}
  {% set inputs = dbt_backfill._relations_read(node) %}
  {% set windowing = dbt_backfill._input_windows(node, scope, values, inputs, published.spec.input_window, model_sql) %}
  {% set bound = dbt_backfill._window_binding(model_sql, windowing, inputs, scope.partition_column.name) %}
  {% set binding = bound.sha256 %}
  {# the windows decide which partitions a change reaches: the scan relies on plan's proof of them, or says it has none #}
  {% set proof = dbt_backfill._window_proof_due(relation, bound, dbt_backfill._window_proof_settings(
      published.spec.window_proof_max_age, none)) if windowing.mode == 'windowed' else none %}
  {% set vouched = dbt_backfill._vouched_partitions(relation, values, binding, since, read_at) %}
  {% do dbt_backfill._check_vouch_basis(relation, scope, vouched, values) %}
  {% set thresholds = vouched.by_value.values() | map(attribute='at') | unique | sort | list %}
  {% set changes = dbt_backfill._input_changes(inputs, windowing.inputs if windowing.mode == 'windowed' else [],
                                               thresholds, vouched.last_scan, read_at) %}
  {% set untracked = [] %}
  {% for input in inputs if not input.get('changed_at') %}
    {% do untracked.append(dbt_backfill._relation_name(dbt_backfill._relation(input))) %}
  {% endfor %}
  {% set candidates = dbt_backfill._stale_candidates(values, windowing, vouched, changes, thresholds, untracked) %}
  {% set ahead = dbt_backfill._days_after_the_target(looked_at, windowing, changes, thresholds, candidates) %}
  {% set compared = dbt_backfill._compare_following_keys(relation, scope, model_sql, windowing, candidates) %}
  {% set stale = dbt_backfill._stale_details(relation, scope, compared, candidates) %}
  {% set widen = dbt_backfill._window_for_moved_keys(model, relation, scope, compared, windowing, stale) %}
  {# a day after the target's last is the live job's to publish: stale only as a day a key moved to #}
  {% set stale = stale | rejectattr('value', 'in', ahead | reject('in', widen.moved_to if widen else []) | list) | list %}
  {% if compared.rows is not none %}{% do dbt_backfill._drop_model_rows(compared.rows) %}{% endif %}
  {% set result = dbt_backfill._stale_result(model, relation, scope, looked_at, read_at, windowing, vouched, changes,
                                             untracked, candidates, stale, widen,
                                             dbt_backfill._window_proof_said(model, windowing, proof)) %}
  {% do dbt_backfill._record_stale_scan(relation, scope, looked_at, model, result, binding, vouched, changes, candidates,
                                          windowing, compared) %}
  {% do dbt_backfill._say_stale(result) %}
  {% do dbt_backfill._emit_result('stale', result) %}
  {% if result.stale and fail_when_stale %}
    {{ exceptions.raise_compiler_error('dbt_backfill: ' ~ result.stale | length ~ ' partition(s) of ' ~ model
        ~ ' differ from what it builds now (' ~ result.ranges ~ '). ' ~ ('First: ' ~ result.repair.first ~ '. '
        if result.repair.first else '') ~ 'Repair them: ' ~ result.repair.pure_dbt) }}
  {% endif %}
{% endmacro %}
