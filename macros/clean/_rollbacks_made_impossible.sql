{#
  The earlier runs' rollbacks a clean of `run_id` makes impossible, in words: on each partition whose rows are this
  run's (the top of its holders, _partition_ledger), every run below it there could be rolled back only after this
  one, whose backups the clean drops; after it, a rollback of those runs is refused (rollback_partitions'
  _refuse_undoing_a_later_run), and the way to change the partition is a plan (_plan_command). One sentence per earlier run, naming its partitions.
#}
{% macro _rollbacks_made_impossible(run_id, partitions, ledger, model) %}
  {% set by_run = {} %}
  {% for partition in partitions %}
    {% set holders = ledger.holders.get(partition.value) or [] %}
    {% if holders and holders[-1] == run_id %}
      {% for earlier in holders[:-1] if earlier != run_id %}
        {% do by_run.setdefault(earlier, []).append(partition.value) %}
      {% endfor %}
    {% endif %}
  {% endfor %}
  {% set said = [] %}
  {% for earlier, values in by_run.items() %}
    {% do said.append('run ' ~ earlier ~ ' can no longer be rolled back on ' ~ values | join(', ') ~ ': run ' ~ run_id
        ~ ' wrote over it there and its backups are dropped now, so `' ~ dbt_backfill._rollback_command(ledger, earlier)
        ~ '` is refused (it would undo run ' ~ run_id ~ ', which nothing can undo now); to change ' ~ ('it' if values | length == 1 else 'them')
        ~ ', plan again: `' ~ dbt_backfill._plan_command(ledger, earlier, model, values | join(',')) ~ '`') %}
  {% endfor %}
  {{ return(said) }}
{% endmacro %}
