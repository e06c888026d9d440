{#
  What a rollback leaves downstream: the runs of the models downstream of the rolled-back one (`downstream`: the
  packet's list, topological order; those partitioned as it is) whose rows a partition it restored (`restored`)
  still holds, written after run `run_id`'s own replacement there (as `ledger`, the rolled-back model's partition
  ledger, records it) — built, that is, from the rows this rollback just took away. An `apply --cascade` leaves exactly these. A
  run written earlier read the rows this rollback restores, so it is not named. Read from each model's audit trail
  (the partition ledger); only reads. Returns [{model, run_id, values, command: the one that rolls it back}] and
  `said` (none when none): a sentence, then each command on a line of its own.
#}
{% macro _downstream_still_applied(downstream, ledger, run_id, restored) %}
  {% set written_at = {} %}
  {% for value in restored | map('string') %}
    {% set own = ledger.writes.get(value, []) | selectattr('run_id', 'equalto', run_id) | selectattr('event', 'equalto', 'replaced') | list %}
    {% if own %}{% do written_at.update({value: own[-1].at}) %}{% endif %}
  {% endfor %}
  {% set left = [] %}
  {# after the restores: a model gone from the project since the plan is passed over, never a failure that would
     hide what was written #}
  {% set models = graph.nodes.values() | selectattr('resource_type', 'equalto', 'model') | list %}
  {% for d in downstream or [] if d.mapping == 'same_partitions' and written_at %}
    {% for node in models | selectattr('name', 'equalto', d.model) %}
      {% set relation = dbt_backfill._target_relation({'database': node.database, 'schema': node.schema,
                                                       'identifier': node.alias or node.name}) %}
      {% set theirs = dbt_backfill._partition_ledger(relation, written_at.keys() | list) %}
      {% set runs = {} %}
      {% for value, since in written_at.items() if theirs.holders.get(value) %}
        {% set holder = theirs.holders[value][-1] %}
        {% set later = theirs.writes[value] | selectattr('run_id', 'equalto', holder) | selectattr('at', 'gt', since) | list %}
        {% if later %}{% do runs.setdefault(holder, []).append(value) %}{% endif %}
      {% endfor %}
      {% for holder, values in runs.items() %}
        {% do left.append({'model': d.model, 'run_id': holder, 'values': values,
                           'command': dbt_backfill._rollback_command(theirs, holder)}) %}
      {% endfor %}
    {% endfor %}
  {% endfor %}
  {% set each = [] %}
  {% for run in left %}{% do each.append(run.model ~ ' holds run ' ~ run.run_id ~ ' on ' ~ run['values'] | join(', ')) %}{% endfor %}
  {% set said = ('Still applied downstream: ' ~ each | join('; ') ~ ' (written after this run, from the rows this '
      ~ 'rollback replaced). Roll ' ~ ('it' if left | length == 1 else 'them') ~ ' back too:\n  '
      ~ left | map(attribute='command') | join('\n  ') if left else none) %}
  {{ return({'runs': left, 'said': said}) }}
{% endmacro %}
