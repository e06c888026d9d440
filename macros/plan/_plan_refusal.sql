{#
  What a plan refuses once its stages are built, before any packet is written, in the order it checks: two builds
  that differ, a business key null or repeated, a partition neither side holds (_vacant_refusal), a partition the
  build would empty (unless allowed), then, where something changes, keys that would sit in two partitions or leave
  the named ones, and a raised column watermark (unless allowed). The one home of these rules and their words: the
  CLI raises them from plan_stages' result, pure dbt from plan_backfill, each then saying what became of the stages.
  A business key that repeats across partitions in a full build is refused as such before any move is claimed.
  Returns none, or {reason (none: bad input, not a safety refusal), message, details, keep_stages}.
#}
{% macro _plan_refusal(plan, allowances={}) %}
  {% set found = dbt_backfill._build_refusal(plan, allowances) %}
  {% if found is none and not plan.nothing_to_change %}
    {% set found = dbt_backfill._key_refusal(plan, allowances) %}
  {% endif %}
  {{ return(found) }}
{% endmacro %}

{% macro _fingerprint_words(f) %}
  {% set totals = [] %}
  {% for column, total in (f.totals or {}).items() %}{% do totals.append(column ~ ' ' ~ total) %}{% endfor %}
  {{ return(f.row_count ~ ' rows' ~ (', ' ~ totals | join(', ') if totals else '') ~ ', sha256 ' ~ f.sha256[:12] ~ '…') }}
{% endmacro %}

{% macro _build_refusal(plan, allowances) %}
  {% set differing, described = [], [] %}
  {% for p in plan.partitions %}
    {% set a, b = p.builds.a, p.builds.b %}
    {# equal rows, as _same_fingerprint decides it (builds_equal): the totals follow from the rows #}
    {% if not p.builds_equal %}
      {% do differing.append(p.value) %}
      {% do described.append(p.value ~ ': a ' ~ dbt_backfill._fingerprint_words(a) ~ ' vs b ' ~ dbt_backfill._fingerprint_words(b)) %}
    {% endif %}
  {% endfor %}
  {% if differing %}
    {{ return({'reason': 'builds_differ', 'keep_stages': true, 'details': {'partitions': differing},
        'message': 'the two builds differ for partition(s) ' ~ differing | join(', ') ~ ' (' ~ described | join('; ')
        ~ '). The model does not give the same rows twice from the same source (random(), now(), a newest-wins order '
        ~ 'with ties, an unordered limit). No packet was written and the target is unchanged.'}) }}
  {% endif %}
  {% set broken, described = [], [] %}
  {% for p in plan.partitions if p.builds.a.null_keys or p.builds.a.duplicate_keys %}
    {% do broken.append(p.value) %}
    {% do described.append(p.value ~ ': ' ~ p.builds.a.null_keys ~ ' null, ' ~ p.builds.a.duplicate_keys ~ ' duplicated') %}
  {% endfor %}
  {% if broken %}
    {{ return({'reason': 'business_key', 'keep_stages': false, 'details': {'partitions': broken},
        'message': 'the business key does not identify one row per key in partition(s) ' ~ described | join('; ')
        ~ '. Fix the model\'s newest-wins logic or the declared business_key. No packet was written and the target '
        ~ 'is unchanged.'}) }}
  {% endif %}
  {% set vacant = dbt_backfill._vacant_refusal(plan=plan) %}
  {% if vacant %}
    {{ return({'reason': none, 'keep_stages': false, 'details': {}, 'message': vacant}) }}
  {% endif %}
  {% set emptied = plan.partitions | selectattr('builds.a.row_count', 'equalto', 0)
                   | rejectattr('target_before.row_count', 'equalto', 0) | list %}
  {% if emptied and not allowances.get('empty_partitions') %}
    {{ return({'reason': 'empty_stage', 'keep_stages': false, 'details': {'partitions': emptied | map(attribute='value') | list},
        'message': 'the model produces no rows for partition(s) ' ~ emptied | map(attribute='value') | join(', ')
        ~ ', where the target holds ' ~ emptied | map(attribute='target_before.row_count') | join(', ') ~ ' rows: '
        ~ 'applying would empty them. Check the partition values and the source; if emptying is right, plan again '
        ~ 'with --allow-empty "<reason>" (pure dbt: allow_empty: <reason>). No packet was written and the target is '
        ~ 'unchanged.'}) }}
  {% endif %}
  {{ return(none) }}
{% endmacro %}

{% macro _key_refusal(plan, allowances) %}
  {% set key = plan.business_key | join('|') %}
  {% set repeated = plan.get('keys_repeated') or [] %}
  {% if repeated %}
    {# not a move: a full build holds these keys in several partitions (keys_repeated) #}
    {% set described = [] %}
    {% for r in repeated %}
      {% do described.append(key ~ '=' ~ r.key ~ ' in ' ~ r.partitions ~ ' partitions, ' ~ r.first
          ~ (' and ' if r.partitions == 2 else ' to ') ~ r.last) %}
    {% endfor %}
    {% set widened = plan.business_key + [plan.partition_by] %}
    {{ return({'reason': 'business_key_repeats', 'keep_stages': false,
        'details': {'repeated': repeated, 'business_key': widened},
        'message': 'business_key [' ~ plan.business_key | join(', ') ~ '] repeats across partitions (a full build '
        ~ 'of the model holds ' ~ described | join('; ') ~ '): it identifies a row only within a partition, and the '
        ~ 'plan needs a key that identifies one row in the whole table to tell a row that moved between partitions. '
        ~ 'Include the partition column in business_key ([' ~ widened | join(', ') ~ ']). No packet was written and '
        ~ 'the target is unchanged.'}) }}
  {% endif %}
  {% set collisions = plan.key_collisions or [] %}
  {% if collisions %}
    {% set described = [] %}
    {% for c in collisions %}{% do described.append(key ~ '=' ~ c.key ~ ' in ' ~ c.partition ~ ' and in ' ~ c.also_in) %}{% endfor %}
    {{ return({'reason': 'key_in_two_partitions', 'keep_stages': false, 'details': {'collisions': collisions},
        'message': 'after the backfill these keys would be in two partitions (' ~ described | join('; ') ~ '): a row '
        ~ 'moved between partitions and only one side is named. Name every partition it moved between. No packet was '
        ~ 'written and the target is unchanged.'}) }}
  {% endif %}
  {% set moved_out = plan.keys_moved_out or [] %}
  {% if moved_out %}
    {% set described = [] %}
    {% for m in moved_out %}{% do described.append(key ~ '=' ~ m.key ~ ' leaves ' ~ m.partition ~ ' for ' ~ m.moved_to) %}{% endfor %}
    {% set to_add = moved_out | map(attribute='moved_to') | unique | sort | list %}
    {{ return({'reason': 'key_moved_out_of_scope', 'keep_stages': false,
        'details': {'moved_out': moved_out, 'partitions_to_add': to_add},
        'message': 'rows would be lost: a full build of the model places these keys in partitions the plan does not '
        ~ 'name (' ~ described | join('; ') ~ '); replacing the named partitions alone would leave them in no '
        ~ 'partition. Add ' ~ to_add | join(', ') ~ ' to --partitions (pure dbt: partitions). No packet was written '
        ~ 'and the target is unchanged.'}) }}
  {% endif %}
  {% set watermark = plan.watermark %}
  {% if watermark and watermark.raised and not allowances.get('watermark_move') %}
    {{ return({'reason': 'watermark_raised', 'keep_stages': false, 'details': {'watermark': watermark},
        'message': 'the backfill would raise the live job\'s watermark max(' ~ watermark.before.column ~ ') from '
        ~ watermark.before.value ~ ' to ' ~ watermark.after.value ~ ': the next scheduled run would resume from there '
        ~ 'and skip what lies between. Leave the newest partitions to the live job, or plan again with '
        ~ '--allow-watermark-move "<reason>" (pure dbt: allow_watermark_move: <reason>). No packet was written and the '
        ~ 'target is unchanged.'}) }}
  {% endif %}
  {{ return(none) }}
{% endmacro %}
