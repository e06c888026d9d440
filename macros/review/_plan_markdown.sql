{#
  The written plan a data owner reads (Markdown), from what the plan measured: the review table and verdict,
  then the headings of a safe-backfill plan in this order: Scope, Order, Dry-Run, Execution Batches, Validation,
  Monitoring, Stop Conditions, Rollback. What the tool cannot know (owners, retention, a downstream model's
  scope) is marked unknown and listed as a gate. `commands` names the next steps in the caller's terms (the CLI
  or dbt run-operation): {approve, apply, verify, rollback, history}. One renderer for both paths.
#}
{% macro _plan_markdown(plan, commands) %}
  {% set values = plan.partitions | map(attribute='value') | list %}
  {% set writes = dbt_backfill.write_guarantees(plan.get('table_format')) %}
  {% set l = dbt_backfill._markdown_verdict(plan) %}
  {% do l.extend(dbt_backfill._markdown_scope(plan, values, writes)) %}
  {% do l.extend(dbt_backfill._markdown_order(plan, values)) %}
  {% do l.extend(dbt_backfill._markdown_dry_run(plan)) %}
  {% do l.extend(dbt_backfill._markdown_execution_batches(plan, values, writes, commands)) %}
  {% do l.extend(dbt_backfill._markdown_validation(plan, commands)) %}
  {% do l.extend(dbt_backfill._markdown_monitoring(plan, writes, commands)) %}
  {% do l.extend(dbt_backfill._markdown_stop_conditions(plan, writes)) %}
  {% do l.extend(dbt_backfill._markdown_rollback(plan, writes, commands)) %}
  {{ return(l | join('\n') ~ '\n') }}
{% endmacro %}

{# The title, the verdict and the review's table. #}
{% macro _markdown_verdict(plan) %}
  {% set l = [] %}
  {% set icon = {'block': '🔴 Block', 'warn': '🟡 Warn', 'unknown': '⚪ Unknown', 'ok': '🟢 OK'} %}
  {% do l.append('# Backfill plan: ' ~ plan.model ~ ' — run ' ~ plan.run_id) %}
  {% do l.append('') %}
  {% do l.append('**Verdict: ' ~ plan.review.verdict ~ '** — ' ~ plan.review.reason ~ '.') %}
  {% do l.append('') %}
  {% do l.append('| # | Severity | Check | Finding | Safe alternative |') %}
  {% do l.append('|---|----------|-------|---------|------------------|') %}
  {% for check in plan.review.checks %}
    {% do l.append('| ' ~ check.number ~ ' | ' ~ icon[check.severity] ~ ' | ' ~ check.check ~ ' | ' ~ check.finding | replace('|', '\\|')
        ~ ' | ' ~ check.safe_alternative | replace('|', '\\|') ~ ' |') %}
  {% endfor %}
  {{ return(l) }}
{% endmacro %}

{# Scope: the dataset and its grain, the partitions, the code, the write semantics, what depends on it and what
   is left out, the allowances, and the gates a person resolves (the review's unknowns, the downstream models whose
   scope is unknown, the owner, the retention). #}
{% macro _markdown_scope(plan, values, writes) %}
  {% set l = [] %}
  {% set gates = [] %}
  {% for check in plan.review.checks if check.severity == 'unknown' %}{% do gates.append(check.check ~ ': ' ~ check.finding) %}{% endfor %}
  {% for model in plan.downstream if model.mapping == 'unknown' %}
    {% do gates.append('downstream ' ~ model.model ~ ' (' ~ model.materialized ~ ', '
        ~ (model.reason or ('partitioned by ' ~ model.partition_by if model.partition_by else 'no meta.backfill')) ~ '): which of its partitions to rebuild is unknown') %}
  {% endfor %}
  {% do gates.append('data owner of ' ~ plan.target_name ~ ': unknown — the approver named in the packet decides pass or fail') %}
  {% do gates.append('retention of the source and of the backups: unknown — the backups stay until `clean`') %}
  {% do l.append('') %}
  {% do l.append('## Scope') %}
  {% do l.append('') %}
  {% do l.append('- **Root dataset:** `' ~ plan.target_name ~ '` (dbt model `' ~ plan.model ~ '`, ' ~ plan.adapter ~ '); grain: one row per `'
      ~ plan.business_key | join(', ') ~ '`' ~ dbt_backfill._kept_version(plan.order_by) ~ '.') %}
  {% do l.append('- **Partitions:** ' ~ values | join(', ') ~ ' of `' ~ plan.partition_by ~ '` (' ~ plan.partition_type
      ~ '; a partition is one value of the column, so no time zone or daylight-saving boundary applies).') %}
  {% if plan.get('chosen_by') %}
    {% do l.append('- **How they were chosen:** ' ~ plan.chosen_by ~ '.') %}
  {% endif %}
  {% if plan.get('skipped_in_ranges') %}
    {% do l.append('- **Left out of the range(s):** ' ~ plan.skipped_in_ranges | length ~ ' value(s) with no rows in the target '
        ~ 'or in the model\'s output, found before anything was built: ' ~ (plan.skipped_in_ranges[:12] | join(', '))
        ~ (' and ' ~ (plan.skipped_in_ranges | length - 12) ~ ' more' if plan.skipped_in_ranges | length > 12 else '') ~ '.') %}
  {% endif %}
  {% do l.append('- **Code:** compiled SQL sha256 `' ~ plan.code.compiled_sql_sha256[:12] ~ '…`, git commit `'
      ~ (plan.code.git_commit or 'unknown') ~ '`, dbt_backfill ' ~ plan.code.dbt_backfill_version
      ~ '. The version that wrote the current rows is unknown; the target\'s current fingerprints stand for it.') %}
  {% do l.append('- **Write semantics:** ' ~ writes.write_semantics ~ '.') %}
  {% do l.append('- **Dependency set:** ' ~ ((plan.downstream | length) ~ ' downstream model(s): ' ~ plan.downstream | map(attribute='model') | join(', ') if plan.downstream else 'no model reads this one') ~ '.') %}
  {% do l.append('- **Exclusions:** every other partition of the target' ~ (', and columns ' ~ plan.exclude_columns | join(', ') ~ ' from the fingerprint (written unchecked: see Dry-Run)' if plan.exclude_columns else '') ~ '.') %}
  {% for name, allowance in plan.allowances.items() %}
    {% do l.append('- **Allowed by the planner:** ' ~ name ~ ' — ' ~ allowance) %}
  {% endfor %}
  {% do l.append('- **Unresolved gates:**') %}
  {% for gate in gates %}{% do l.append('  - ' ~ gate) %}{% endfor %}
  {{ return(l) }}
{% endmacro %}

{# Order: the model (canary, then batches), then each model downstream and what its rebuild covers. #}
{% macro _markdown_order(plan, values) %}
  {% set l = [] %}
  {% set canary = values[0] %}
  {% set rest = values[1:] %}
  {% do l.append('') %}
  {% do l.append('## Order') %}
  {% do l.append('') %}
  {% do l.append('1. `' ~ plan.model ~ '`: canary ' ~ canary ~ (', then ' ~ rest | join(', ') ~ ' in batches of ' ~ plan.batch_size if rest else '')
      ~ '. Gate: every partition equals its approved fingerprint' ~ (' and the reconciliation gates hold' if plan.gates else '') ~ '.') %}
  {% set changing = [] %}
  {% for p in plan.partitions if p.commitment != p.target_before_commitment %}{% do changing.append(p.value) %}{% endfor %}
  {% for model in plan.downstream %}
    {% if model.mapping == 'same_partitions' %}
      {% set reach = model.reach or {} %}
      {% set what = 'the partitions of ' ~ model.partition_by ~ ' its parents change'
          ~ (' (' ~ (changing | join(', ') or 'none') ~ ' by this plan)' if model.parents == [plan.model] else '')
          ~ (', widened to ' ~ dbt_backfill._window_sides(reach) ~ ' each (' ~ reach.declared_by ~ ')'
             if reach.declared_by else ' (no window declared in meta.backfill.depends_on_window)')
          ~ ', planned and applied behind ' ~ model.parents | join(', ') ~ ' with `--cascade`, each behind its own gates; '
          ~ 'every other partition of it is first compared with a full build of it, and one that differs stops the cascade there' %}
    {% elif model.mapping in ('view', 'ephemeral') %}
      {% set what = 'a ' ~ model.mapping ~ ': reads its parents when queried, nothing to rebuild' %}
    {% else %}
      {% set what = 'scope unknown (' ~ (model.reason or ('partitioned by ' ~ model.partition_by if model.partition_by else 'no meta.backfill')) ~ '): a gate, rebuilt by a person' %}
    {% endif %}
    {% do l.append((loop.index + 1) ~ '. `' ~ model.model ~ '` (after ' ~ model.parents | join(', ') ~ '): ' ~ what ~ '.') %}
  {% endfor %}
  {{ return(l) }}
{% endmacro %}

{# Dry-Run: what the plan did, the input windows, per partition the change and the cost, and a sample of the
   changed rows. #}
{% macro _markdown_dry_run(plan) %}
  {% set l = [] %}
  {% do l.append('') %}
  {% do l.append('## Dry-Run') %}
  {% do l.append('') %}
  {% do l.append('Done by this plan; nothing published was written. The source (' ~ (plan.sources | join(', ') or 'none')
      ~ ') was read twice before the builds and once after, unchanged; every partition was built twice into `'
      ~ plan.stage_schema ~ '` and fingerprinted.') %}
  {% do l.append('') %}
  {% set windows = plan.source.windows %}
  {% if windows.mode == 'windowed' %}
    {% set inputs = [] %}
    {% for input in windows.inputs %}{% do inputs.append('`' ~ input.relation ~ '` by `' ~ input.event_time ~ '`') %}{% endfor %}
    {% do l.append('Input windows (' ~ windows.declared_by ~ ': ' ~ windows.before ~ ' day(s) before each partition, '
        ~ windows.after ~ ' after): ' ~ inputs | join(', ') ~ ' read within each partition\'s window'
        ~ ('; read whole: ' ~ windows.whole | join(', ') if windows.whole else '') ~ '. The source pin reads the same. '
        ~ 'Windows ' ~ windows.evidence ~ '.') %}
    {% do l.append('') %}
    {% do l.append('| partition | build a read from | until (excluded) | build b read |') %}
    {% do l.append('|---|---|---|---|') %}
    {% for p in plan.partitions %}
      {% set checked = windows.checked.get(p.value) %}
      {% do l.append('| ' ~ p.value ~ ' | ' ~ windows.partitions[p.value].start ~ ' | ' ~ windows.partitions[p.value].end ~ ' | '
          ~ ('the whole inputs' if windows.proof.proven_by_this_plan else 'from ' ~ checked.start ~ ' until ' ~ checked.end) ~ ' |') %}
    {% endfor %}
  {% else %}
    {% do l.append('Input windows: none (' ~ windows.why ~ ').') %}
  {% endif %}
  {% do l.append('') %}
  {% set unchecked = plan.exclude_columns | length > 0 %}
  {% do l.append('| partition | rows now | rows after | added | removed | changed |' ~ (' excluded rewritten (unchecked) |' if unchecked else '')
      ~ ' builds a = b | est. rows read (builds) | est. bytes read | rows written (apply) |') %}
  {% do l.append('|---|---|---|---|---|---|' ~ ('---|' if unchecked else '') ~ '---|---|---|---|') %}
  {% for p in plan.partitions %}
    {% set c = plan.cost.partitions[loop.index0] %}
    {% do l.append('| ' ~ p.value ~ ' | ' ~ p.target_before.row_count ~ ' | ' ~ p.builds.a.row_count ~ ' | ' ~ p.changes.added ~ ' | '
        ~ p.changes.removed ~ ' | ' ~ p.changes.changed ~ ' | ' ~ ((p.changes.get('excluded', 0) ~ ' | ') if unchecked else '')
        ~ ('yes' if p.builds_equal else '**no**') ~ ' | '
        ~ (c.build_read_rows if c.build_read_rows is not none else 'unknown')
        ~ ' | ' ~ dbt_backfill._human_bytes(c.build_read_bytes) ~ ' | ' ~ (c.apply_write_rows if c.apply_write_rows is not none else 'unknown') ~ ' |') %}
  {% endfor %}
  {% do l.append('') %}
  {% set skipped = [] %}
  {% for p in plan.partitions if p.builds.a.sha256 == p.target_before.sha256 and p.commitment == p.target_before_commitment %}
    {% do skipped.append(p.value) %}
  {% endfor %}
  {% if skipped %}
    {% do l.append('') %}
    {% do l.append('Already equal to its build (fingerprint and commitment), so apply will skip it and write nothing there: ' ~ skipped | join(', ') ~ '.') %}
    {% do l.append('') %}
  {% endif %}
  {% do l.append('Rows written (apply) are measured from the builds: the backup of the rows now, then the rows after. '
      ~ 'Estimates are the planner\'s (' ~ plan.cost.source ~ '); each estimate is of the model over its whole inputs (an upper bound where inputs are windowed). Threshold: '
      ~ plan.cost.thresholds.rows ~ ' rows, ' ~ dbt_backfill._human_bytes(plan.cost.thresholds.bytes) ~ ' read' ~ ('; **over: ' ~ plan.cost.over | join('; ') ~ '**' if plan.cost.over else '; within it') ~ '.') %}
  {% for note in [(plan.get('column_notes') or {}).get('excluded'), (plan.get('column_notes') or {}).get('run_level')] if note %}
    {% do l.append('') %}{% do l.append('**' ~ note.said ~ '**') %}
  {% endfor %}
  {% set samples = dbt_backfill._markdown_samples(plan) %}
  {% if samples %}
    {% do l.append('') %}
    {% do l.append('Changed rows (sample, old → new):') %}
    {% do l.append('') %}
    {% do l.extend(samples) %}
  {% endif %}
  {{ return(l) }}
{% endmacro %}

{# The changed rows' samples, a line each: the partition, the key and each changed column's old and new value; the
   keys added and removed. Every value they show is escaped in one call (_shown_each), then read back in order. #}
{% macro _markdown_samples(plan) %}
  {% set values = [] %}
  {% for p in plan.partitions %}
    {% for s in p.changes.sample %}
      {% do values.extend([p.value, s.key]) %}
      {% for name, change in s.columns.items() %}{% do values.extend([name, change.old, change.new]) %}{% endfor %}
    {% endfor %}
    {% for key in p.changes.added_keys + p.changes.removed_keys %}{% do values.extend([p.value, key]) %}{% endfor %}
  {% endfor %}
  {% set shown = dbt_backfill._shown_each(values) %}
  {% set position = namespace(at=0) %}
  {% set key_names = plan.business_key | join('|') %}
  {% set samples = [] %}
  {% for p in plan.partitions %}
    {% for s in p.changes.sample %}
      {% set line = '- ' ~ shown[position.at] ~ ', ' ~ key_names ~ ' ' ~ shown[position.at + 1] ~ ': ' %}
      {% set position.at = position.at + 2 %}
      {% set cols = [] %}
      {% for name in s.columns %}
        {% do cols.append(shown[position.at] ~ (' (unchecked)' if name in plan.exclude_columns else '') ~ ' '
            ~ shown[position.at + 1] ~ ' → ' ~ shown[position.at + 2]) %}
        {% set position.at = position.at + 3 %}
      {% endfor %}
      {% do samples.append(line ~ cols | join(', ')) %}
    {% endfor %}
    {% for key in p.changes.added_keys + p.changes.removed_keys %}
      {% do samples.append('- ' ~ shown[position.at] ~ ', ' ~ key_names ~ ' ' ~ shown[position.at + 1] ~ ': '
          ~ ('added' if loop.index0 < p.changes.added_keys | length else 'removed')) %}
      {% set position.at = position.at + 2 %}
    {% endfor %}
  {% endfor %}
  {{ return(samples) }}
{% endmacro %}

{# Execution Batches: approval, deadline, canary, control, batches, retry, rate. #}
{% macro _markdown_execution_batches(plan, values, writes, commands) %}
  {% set l = [] %}
  {% set canary = values[0] %}
  {% set rest = values[1:] %}
  {% do l.append('') %}
  {% do l.append('## Execution Batches') %}
  {% do l.append('') %}
  {% do l.append('- **Approval to start:** ' ~ commands.approve ~ ' binds to this packet\'s exact content; then ' ~ commands.apply ~ '.'
      ~ ((' Who may approve: ' ~ plan.review.approval_policy ~ '.') if plan.review.get('approval_policy') else '')) %}
  {% do l.append('- **Deadline:** apply by ' ~ plan.expires_at ~ ' (meta.backfill.approval_ttl after the plan); later, and '
      ~ 'whenever a relation the builds read no longer reads as pinned here, apply refuses the packet: plan again.') %}
  {% do l.append('- **Canary:** ' ~ canary ~ ' is replaced first and verified (fingerprint re-read after commit) before anything else.') %}
  {% do l.append('- **Control:** ' ~ ((dbt_backfill._shown(plan.control.value) ~ ' (outside the scope, ' ~ plan.control.fingerprint.row_count ~ ' rows, sha256 `' ~ plan.control.fingerprint.sha256[:12] ~ '…`) is fingerprinted before the canary and after every batch and must not change') if plan.control else 'none available (the target holds no other partition): unknown') ~ '.') %}
  {% do l.append('- **Batches:** ' ~ ((rest | batch(plan.batch_size) | map('join', ', ') | join(' / ')) if rest else 'none after the canary') ~ '; ' ~ writes.unit ~ ' per partition, one at a time (concurrency 1), a checkpoint after each batch.') %}
  {% do l.append('- **Retry and idempotency:** rerun ' ~ commands.apply ~ ' after any interruption: partitions already equal to the approval are skipped, the rest are replaced; a partition that changed since the plan stops the run.') %}
  {% do l.append('- **Rate:** the builds are done; apply reads only the stages and the target\'s partitions.') %}
  {{ return(l) }}
{% endmacro %}

{# Validation: before each commit, after each batch, the reconciliation gates, later. #}
{% macro _markdown_validation(plan, commands) %}
  {% set l = [] %}
  {% do l.append('') %}
  {% do l.append('## Validation') %}
  {% do l.append('') %}
  {% do l.append('- **Before commit, each partition:** rows, null and duplicate keys, totals (' ~ (plan.additive | join(', ') or 'none declared')
      ~ ') and the canonical sha256 must equal the approved build.') %}
  {% do l.append('- **After each batch:** the batch\'s partitions re-read equal to the approval; the control partition unchanged.') %}
  {% if plan.gates %}
    {% do l.append('- **Reconciliation gates** (meta.backfill.checks), evaluated on the builds:') %}
    {% do l.append('') %}
    {% do l.append('| gate | partition | observed | expected | result |') %}
    {% do l.append('|---|---|---|---|---|') %}
    {% for gate in plan.gates %}
      {% do l.append('| ' ~ gate.check ~ ' | ' ~ gate.partition ~ ' | ' ~ gate.observed ~ ' | ' ~ gate.expected ~ ' | ' ~ ('pass' if gate.passed else '**FAIL**') ~ ' |') %}
    {% endfor %}
    {% do l.append('') %}
  {% else %}
    {% do l.append('- **Reconciliation gates:** none declared (meta.backfill.checks): unknown whether the new rows agree with a control.') %}
  {% endif %}
  {% do l.append('- **Any time later:** ' ~ commands.verify ~ '. Who decides pass or fail: the approver.') %}
  {{ return(l) }}
{% endmacro %}

{# Monitoring: the audit trail, the signals, the collisions. #}
{% macro _markdown_monitoring(plan, writes, commands) %}
  {% set l = [] %}
  {% do l.append('') %}
  {% do l.append('## Monitoring') %}
  {% do l.append('') %}
  {% do l.append('- Every event (planned, approved, partition replaced or skipped, refused, verified, rolled back) is a row of `'
      ~ plan.audit_relation ~ '`, ' ~ writes.audit ~ ': ' ~ commands.history ~ '.') %}
  {% do l.append('- Signals: partitions replaced / skipped, duration per partition, the live job\'s watermark ' ~ writes.watermark ~ ', the control partition after every batch. Owner: unknown (the operator who runs apply).') %}
  {% do l.append('- Collisions: ' ~ plan.lock.how ~ '.') %}
  {{ return(l) }}
{% endmacro %}

{# Stop Conditions: what stops an apply. #}
{% macro _markdown_stop_conditions(plan, writes) %}
  {% set l = [] %}
  {% do l.append('') %}
  {% do l.append('## Stop Conditions') %}
  {% do l.append('') %}
  {% for condition in [
      'a stage no longer equals its approved fingerprint (nothing is touched)',
      'a partition changed since the plan (the approved change summary no longer describes it)',
      'a replaced partition does not equal the approved fingerprint: ' ~ writes.on_mismatch,
      'the canary or a batch does not read back equal to the approval after commit',
      'the control partition ' ~ (plan.control.value ~ ' ' if plan.control else '') ~ 'changes',
      'the live job\'s watermark moves, or the table\'s lock is held by the scheduled run or another apply',
      'a reconciliation gate failed at plan time (apply refuses the packet)'] %}
    {% do l.append('- ' ~ condition) %}
  {% endfor %}
  {{ return(l) }}
{% endmacro %}

{# Rollback: the backups, the procedure, its time limit. #}
{% macro _markdown_rollback(plan, writes, commands) %}
  {% set l = [] %}
  {% do l.append('') %}
  {% do l.append('## Rollback') %}
  {% do l.append('') %}
  {% do l.append('- **Artifact:** one backup table per partition in `' ~ plan.stage_schema ~ '`, ' ~ writes.backup ~ '.') %}
  {% do l.append('- **Procedure:** ' ~ commands.rollback ~ ' restores each replaced partition ' ~ writes.unit ~ ' each and keeps it only when it equals its fingerprint before the apply (' ~ (plan.partitions | map(attribute='target_before') | map(attribute='row_count') | sum) ~ ' rows in all). Reverse order: downstream models first, then the root.') %}
  {% do l.append('- **Time limit:** until the backups are dropped (`clean` keeps them while a rollback is possible). Owner: unknown.') %}
  {% do l.append('- **Irreversible:** nothing, while the backups exist.') %}
  {{ return(l) }}
{% endmacro %}

{# Which version of a key the model keeps, as meta.backfill.order_by declares it (the first in that order wins):
   stated, never assumed; an entry without asc/desc is said to have none. #}
{% macro _kept_version(order_by) %}
  {% if not order_by %}{{ return('') }}{% endif %}
  {% set entries = [] %}
  {% set undirected = [] %}
  {% for entry in order_by %}
    {% set words = entry.split() %}
    {% if words | length == 2 %}
      {% do entries.append('`' ~ words[0] ~ '` ' ~ ('descending (the highest wins)' if words[1] | lower == 'desc' else 'ascending (the lowest wins)')) %}
    {% else %}
      {% do entries.append('`' ~ words[0] ~ '`') %}{% do undirected.append(words[0]) %}
    {% endif %}
  {% endfor %}
  {{ return(', the version kept is the first by ' ~ entries | join(', then ')
      ~ ((' (no direction declared for ' ~ undirected | join(', ') ~ ': which version wins is not stated; declare asc or desc in meta.backfill.order_by)') if undirected else '')) }}
{% endmacro %}

{# "27 partition(s) after", "1 partition(s) before and 2 partition(s) after": only the sides declared. #}
{% macro _window_sides(reach) %}
  {% set sides = [] %}
  {% for side in ['before', 'after'] if reach.get(side) %}{% do sides.append(reach[side] ~ ' partition(s) ' ~ side) %}{% endfor %}
  {{ return(sides | join(' and ') or 'no partition either side') }}
{% endmacro %}
