{#
  The six checks of a safe backfill, judged from what the plan measured, with a verdict:
    1 bounded per-partition units   2 idempotent writes   3 no collision with the scheduled run
    4 watermark untouched           5 cost known          6 bounded, verifiable, reversible
  Each {number, check, severity (block | warn | unknown | ok), finding, safe_alternative}. The verdict is BLOCK if
  any check blocks, RESTRUCTURE FIRST if any warns, else SAFE TO RUN (unknowns become gates a person confirms);
  its reason names the first blocking or warning finding. A small single-partition backfill is judged as such:
  batching it would be over-engineering, not a finding.
#}
{% macro _review(plan) %}
  {% set values = plan.partitions | map(attribute='value') | list %}
  {% set writes = dbt_backfill.write_guarantees(plan.get('table_format')) %}
  {% set checks = [
      dbt_backfill._review_units(plan, writes),
      dbt_backfill._review_idempotence(plan, writes),
      dbt_backfill._review_scheduled_run(plan),
      dbt_backfill._review_watermark(plan, writes),
      dbt_backfill._review_cost(plan),
      dbt_backfill._review_reversibility(plan, writes),
  ] %}
  {% for check in checks %}{% do check.update({'number': loop.index}) %}{% endfor %}
  {% set blocking = checks | selectattr('severity', 'equalto', 'block') | list %}
  {% set warning = checks | selectattr('severity', 'equalto', 'warn') | list %}
  {# what is unknown: each such check, and each downstream model whose scope is (the written plan's gates list them,
     with the data owner and the retention, which every plan leaves to a person) #}
  {% set unknown = checks | selectattr('severity', 'equalto', 'unknown') | map(attribute='check') | map('lower') | list %}
  {% for model in plan.get('downstream') or [] if model.mapping == 'unknown' %}
    {% do unknown.append('the scope of downstream ' ~ model.model) %}
  {% endfor %}
  {% if blocking %}
    {% set verdict, reason = 'BLOCK', blocking[0].check ~ ': ' ~ blocking[0].finding %}
  {% elif warning %}
    {% set verdict, reason = 'RESTRUCTURE FIRST', warning[0].check ~ ': ' ~ warning[0].finding %}
  {% else %}
    {% set verdict, reason = 'SAFE TO RUN', (values | length) ~ ' partition(s), each replaced whole ' ~ writes.unit ~ ' from a reproducible build, nothing else touched'
        ~ ('; confirm ' ~ (unknown | length) ~ ' unknown(s) among its gates: ' ~ unknown | join('; ') if unknown else '') %}
  {% endif %}
  {{ return({'checks': checks, 'verdict': verdict, 'reason': reason}) }}
{% endmacro %}

{# Check 1, bounded per-partition units: the write unit the engine gives, the largest partition against the row
   threshold; a single partition is judged as such (batching it would be over-engineering, not a finding). #}
{% macro _review_units(plan, writes) %}
  {% set partitions = plan.partitions %}
  {% set values = partitions | map(attribute='value') | list %}
  {% set largest = [0] %}
  {% for p in partitions %}{% do largest.append(p.builds.a.row_count) %}{% do largest.append(p.target_before.row_count) %}{% endfor %}
  {% set largest = largest | max %}
  {% if plan.write_unit_problem %}
    {{ return({'check': 'Bounded per-partition units', 'severity': 'block',
        'finding': plan.write_unit_problem,
        'safe_alternative': 'partition the model by ' ~ plan.partition_by ~ ' alone, rebuild it, then plan again'}) }}
  {% elif largest > plan.cost.thresholds.rows %}
    {{ return({'check': 'Bounded per-partition units', 'severity': 'warn',
        'finding': 'a partition holds ' ~ largest ~ ' rows, replaced ' ~ writes.unit ~ ': its lock and undo last for all of them',
        'safe_alternative': 'partition the table more finely, or raise the row threshold knowingly'}) }}
  {% elif partitions | length == 1 %}
    {{ return({'check': 'Bounded per-partition units', 'severity': 'ok',
        'finding': 'one partition (' ~ values[0] ~ ', ' ~ largest ~ ' rows): a single idempotent replace ' ~ writes.unit ~ '; batching it would be over-engineering',
        'safe_alternative': '-'}) }}
  {% else %}
    {{ return({'check': 'Bounded per-partition units', 'severity': 'ok',
        'finding': (partitions | length) ~ ' partitions, ' ~ writes.unit ~ ' each (largest ' ~ largest ~ ' rows), canary first, then batches of '
                   ~ plan.batch_size ~ ' with a checkpoint after each',
        'safe_alternative': '-'}) }}
  {% endif %}
{% endmacro %}

{# Check 2, idempotent writes: the two builds equal, the business key neither null nor repeated (in a partition, or
   across partitions in a full build), no key in two partitions nor moved to one the plan does not name. #}
{% macro _review_idempotence(plan, writes) %}
  {% set partitions = plan.partitions %}
  {% set differing = partitions | rejectattr('builds_equal') | map(attribute='value') | list %}
  {% set removed_keys = [] %}
  {% set losing = [] %}
  {% for p in partitions if p.changes.removed > 0 %}{% do removed_keys.append(p.changes.removed) %}{% do losing.append(p.value) %}{% endfor %}
  {% set broken = [] %}
  {% for p in partitions if p.builds.a.null_keys or p.builds.a.duplicate_keys %}{% do broken.append(p.value) %}{% endfor %}
  {% if differing %}
    {{ return({'check': 'Idempotent writes', 'severity': 'block',
        'finding': 'the two builds of ' ~ differing | join(', ') ~ ' differ: the model does not give the same rows twice',
        'safe_alternative': 'make the model deterministic (no now()/random(), a total newest-wins order)'}) }}
  {% elif broken %}
    {{ return({'check': 'Idempotent writes', 'severity': 'block',
        'finding': 'the business key is null or repeated in ' ~ broken | join(', '),
        'safe_alternative': 'fix the newest-wins logic or the declared business_key'}) }}
  {% elif plan.get('keys_repeated') %}
    {{ return({'check': 'Idempotent writes', 'severity': 'block',
        'finding': 'business_key [' ~ plan.business_key | join(', ') ~ '] repeats across partitions in a full build (e.g. '
                   ~ plan.keys_repeated[0].key ~ ' in ' ~ plan.keys_repeated[0].partitions ~ ' partitions): it identifies a row only within a partition',
        'safe_alternative': 'include the partition column in business_key ([' ~ (plan.business_key + [plan.partition_by]) | join(', ') ~ '])'}) }}
  {% elif plan.key_collisions %}
    {{ return({'check': 'Idempotent writes', 'severity': 'block',
        'finding': (plan.key_collisions | length) ~ ' key(s) would sit in two partitions (a row moved and only one side is named)',
        'safe_alternative': 'name every partition the rows moved between'}) }}
  {% elif plan.keys_moved_out %}
    {% set moved_to = plan.keys_moved_out | map(attribute='moved_to') | unique | sort | list %}
    {{ return({'check': 'Idempotent writes', 'severity': 'block',
        'finding': (plan.keys_moved_out | length) ~ ' key(s) leave ' ~ plan.keys_moved_out | map(attribute='partition') | unique | sort | join(', ')
                   ~ ' for ' ~ moved_to | join(', ') ~ ', which the plan does not name: after the backfill they would be in no partition',
        'safe_alternative': 'add ' ~ moved_to | join(', ') ~ ' to the partitions'}) }}
  {% elif plan.key_holds_partition and removed_keys %}
    {{ return({'check': 'Idempotent writes', 'severity': 'warn',
        'finding': removed_keys | sum ~ ' key(s) removed from ' ~ losing | join(', ') ~ ', and the business key holds the partition column '
                   ~ plan.partition_by ~ ': a row that moved to a partition not named has another key there, so a move cannot be told from a deletion',
        'safe_alternative': 'check the removed keys were deleted at the source, or name the partitions their rows moved to'}) }}
  {% else %}
    {{ return({'check': 'Idempotent writes', 'severity': 'ok',
        'finding': 'each partition is replaced whole ' ~ writes.unit ~ ' from a build made twice with equal fingerprints; a rerun skips partitions already equal to the approval',
        'safe_alternative': '-'}) }}
  {% endif %}
{% endmacro %}

{# Check 3, no collision with the scheduled run: the lock the model takes, a protected model's guard, and the
   other runs over these partitions. #}
{% macro _review_scheduled_run(plan) %}
  {# other backfills of the same partitions, open or done: the approver sees them (the ledger keeps an older
     approval from overwriting a newer one, and a rollback from undoing a later run) #}
  {% set others = plan.get('other_runs') or [] %}
  {# the lock's sentence has no period of its own (the review's table shows it alone) #}
  {% set other_runs = ('. Other runs over these partitions: ' ~ others | map(attribute='said') | join('; ') ~ '.') if others else '' %}
  {% if plan.get('protected_unguarded') %}
    {{ return({'check': 'No collision with the scheduled run', 'severity': 'warn',
        'finding': 'meta.backfill.protected is true, but the model has no dbt_backfill.full_refresh_guard() pre-hook: '
                   ~ 'a `dbt run --full-refresh` would rebuild every published partition, this repair included, and '
                   ~ 'nothing refuses it. ' ~ plan.lock.how ~ other_runs,
        'safe_alternative': 'add "{{ dbt_backfill.full_refresh_guard() }}" to the model\'s pre-hooks (README: the two pre-hooks)'}) }}
  {% elif plan.lock.scheduled_run_waits %}
    {{ return({'check': 'No collision with the scheduled run', 'severity': 'ok',
        'finding': plan.lock.how ~ other_runs, 'safe_alternative': '-'}) }}
  {% else %}
    {{ return({'check': 'No collision with the scheduled run', 'severity': 'warn',
        'finding': plan.lock.how ~ other_runs,
        'safe_alternative': plan.lock.get('alternative') or 'add "{{ dbt_backfill.backfill_lock() }}" to the model\'s pre-hooks, or pause its schedule for the apply'}) }}
  {% endif %}
{% endmacro %}

{# Check 4, watermark untouched: the live job's watermark as the plan predicts it after the backfill. #}
{% macro _review_watermark(plan, writes) %}
  {% set watermark = plan.watermark %}
  {% if not watermark %}
    {{ return({'check': 'Watermark untouched', 'severity': 'unknown',
        'finding': 'the model declares no meta.backfill.watermark: whether the live job keeps a cursor in this table is unknown',
        'safe_alternative': 'declare meta.backfill.watermark ({column: ...}, {relation: ...} or {query: ...})'}) }}
  {% elif watermark.raised and plan.allowances.watermark_move %}
    {{ return({'check': 'Watermark untouched', 'severity': 'warn',
        'finding': 'the backfill raises max(' ~ watermark.before.column ~ ') from ' ~ watermark.before.value ~ ' to '
                   ~ watermark.after.value ~ ', allowed: ' ~ plan.allowances.watermark_move,
        'safe_alternative': 'leave the newest partitions to the live job'}) }}
  {% elif watermark.raised %}
    {{ return({'check': 'Watermark untouched', 'severity': 'block',
        'finding': 'the backfill would raise max(' ~ watermark.before.column ~ ') from ' ~ watermark.before.value ~ ' to '
                   ~ watermark.after.value ~ ': the next scheduled run would skip what lies between',
        'safe_alternative': 'leave the newest partitions to the live job'}) }}
  {% else %}
    {{ return({'check': 'Watermark untouched', 'severity': 'ok',
        'finding': dbt_backfill._describe_watermark(watermark.before) ~ ' is ' ~ watermark.before.value
                   ~ (' and stays ' ~ watermark.after.value ~ ' after the backfill' if watermark.after else '')
                   ~ '; apply re-reads it ' ~ writes.watermark ~ ' and stops if it moves',
        'safe_alternative': '-'}) }}
  {% endif %}
{% endmacro %}

{# Check 5, cost and rate known: the planner's estimates against the thresholds. #}
{% macro _review_cost(plan) %}
  {% set cost = plan.cost %}
  {% if cost.over %}
    {{ return({'check': 'Cost and rate known', 'severity': 'warn', 'finding': cost.over | join('; '),
        'safe_alternative': 'backfill fewer partitions per run, or raise meta.backfill.cost_warning knowingly'}) }}
  {% elif cost.total.build_read_rows is none or cost.total.apply_write_rows is none %}
    {{ return({'check': 'Cost and rate known', 'severity': 'unknown',
        'finding': 'the database planner gave no row estimate for part of the work',
        'safe_alternative': 'estimate the source sizes by other means before running a large range'}) }}
  {% else %}
    {{ return({'check': 'Cost and rate known', 'severity': 'ok',
        'finding': 'builds read ~' ~ cost.total.build_read_rows ~ ' rows'
                   ~ (' (' ~ dbt_backfill._human_bytes(cost.total.build_read_bytes) ~ ')' if cost.total.build_read_bytes is not none else '')
                   ~ ' and write ' ~ ('' if 'build_write_rows' in (cost.measured or []) else '~') ~ cost.total.build_write_rows
                   ~ '; apply writes ' ~ ('' if 'apply_write_rows' in (cost.measured or []) else '~') ~ cost.total.apply_write_rows
                   ~ ' rows' ~ (' (rows written: measured from the builds)' if cost.measured else '') ~ '; below the thresholds (' ~ cost.thresholds.rows ~ ' rows, ' ~ dbt_backfill._human_bytes(cost.thresholds.bytes) ~ ')',
        'safe_alternative': '-'}) }}
  {% endif %}
{% endmacro %}

{# Check 6, bounded, verifiable, reversible: the reconciliation gates, partitions emptied, the control
   partition. #}
{% macro _review_reversibility(plan, writes) %}
  {% set values = plan.partitions | map(attribute='value') | list %}
  {% set failed = plan.gates | rejectattr('passed') | list %}
  {% if failed %}
    {% set described = [] %}
    {% for gate in failed %}{% do described.append(gate.check ~ ' on ' ~ gate.partition ~ ' (' ~ gate.observed ~ ', expected ' ~ gate.expected ~ ')') %}{% endfor %}
    {{ return({'check': 'Bounded, verifiable, reversible', 'severity': 'block',
        'finding': 'reconciliation gate failed: ' ~ described | join('; '),
        'safe_alternative': 'find why the rebuilt partition disagrees with the contract before replacing anything'}) }}
  {% elif plan.emptied and not plan.allowances.get('empty_partitions') %}
    {{ return({'check': 'Bounded, verifiable, reversible', 'severity': 'block',
        'finding': 'the model produces no rows for ' ~ plan.emptied | join(', ') ~ ', which the target holds: applying would empty them',
        'safe_alternative': 'check the partition values and the source; allow emptying with a recorded reason only if it is right'}) }}
  {% elif plan.emptied %}
    {{ return({'check': 'Bounded, verifiable, reversible', 'severity': 'warn',
        'finding': 'empties ' ~ plan.emptied | join(', ') ~ ', allowed: ' ~ plan.allowances.empty_partitions,
        'safe_alternative': 'keep the backups until the owners confirm'}) }}
  {% elif plan.get('backup_expiry') %}
    {{ return({'check': 'Bounded, verifiable, reversible', 'severity': 'warn', 'finding': plan.backup_expiry,
        'safe_alternative': 'raise the table\'s retention (ALTER TABLE ... SET TBLPROPERTIES) above the approval\'s window, or keep VACUUM off it until the rollback window ends'}) }}
  {% elif plan.control is none %}
    {{ return({'check': 'Bounded, verifiable, reversible', 'severity': 'unknown',
        'finding': 'partitions ' ~ values | join(', ') ~ ' only, fingerprinted and backed up; but the target holds no other partition to use as a control',
        'safe_alternative': 'confirm by other means that nothing outside the scope changes'}) }}
  {% else %}
    {{ return({'check': 'Bounded, verifiable, reversible', 'severity': 'ok',
        'finding': 'exactly ' ~ values | join(', ') ~ '; every partition checked against its approved fingerprint (if not, ' ~ writes.on_mismatch ~ ')'
                   ~ (' and ' ~ (plan.gates | length) ~ ' reconciliation gate(s) passed' if plan.gates else '')
                   ~ '; control partition ' ~ plan.control.value ~ ' must not change; a backup per partition for rollback',
        'safe_alternative': '-'}) }}
  {% endif %}
{% endmacro %}
