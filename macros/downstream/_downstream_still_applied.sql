{#
  What a rollback leaves downstream: the runs of the models downstream of the rolled-back one (`downstream`: the
  packet's list, topological order; those partitioned as it is) whose rows a partition replaced by run `run_id`
  still holds, written after that replacement (as `ledger`, the rolled-back model's partition ledger, records it;
  the instants compared whole) — built, that is, from the rows the rollback takes away. An `apply --cascade` leaves
  exactly these. A run written earlier read the rows the rollback restores, so it is not named. Read from each
  model's audit trail (the partition ledger) BEFORE anything is restored, so a failure of this read (an audit table
  refused as untrusted, a row it cannot read) stops the rollback with nothing written; a model gone from the
  project is passed over; an audit table this role cannot trust for that model (PostgreSQL) is not read, and says
  so (`unread`: its problems): the read only advises, and must neither block the rollback nor repeat forged rows.
  Only reads. Returns [{model, run_id, values, command: the one that rolls it back, unread}].
#}
{% macro _downstream_still_applied(downstream, ledger, run_id) %}
  {% set written_at = {} %}
  {% for value, writes in ledger.writes.items() %}
    {% set own = writes | selectattr('run_id', 'equalto', run_id) | selectattr('event', 'equalto', 'replaced') | list %}
    {% if own %}{% do written_at.update({value: own[-1].instant}) %}{% endif %}
  {% endfor %}
  {% set left = [] %}
  {% set models = graph.nodes.values() | selectattr('resource_type', 'equalto', 'model') | list %}
  {% for d in downstream or [] if d.mapping == 'same_partitions' and written_at %}
    {% for node in models | selectattr('name', 'equalto', d.model) %}
      {% set relation = dbt_backfill._target_relation({'database': node.database, 'schema': node.schema,
                                                       'identifier': node.alias or node.name}) %}
      {% set distrust = dbt_backfill.refuse_untrusted_audit_table(dbt_backfill._audit_relation(relation), relation, refuse=false) %}
      {% if distrust %}
        {% do left.append({'model': d.model, 'run_id': none, 'values': written_at.keys() | list, 'command': none,
                           'unread': distrust | join('; ')}) %}
      {% else %}
        {% set theirs = dbt_backfill._partition_ledger(relation, written_at.keys() | list) %}
        {% set runs = {} %}
        {% for value, since in written_at.items() if theirs.holders.get(value) %}
          {% set holder = theirs.holders[value][-1] %}
          {% set later = theirs.writes[value] | selectattr('run_id', 'equalto', holder) | selectattr('instant', 'gt', since) | list %}
          {% if later %}{% do runs.setdefault(holder, []).append(value) %}{% endif %}
        {% endfor %}
        {% for holder, values in runs.items() %}
          {% do left.append({'model': d.model, 'run_id': holder, 'values': values,
                             'command': dbt_backfill._rollback_command(theirs, holder)}) %}
        {% endfor %}
      {% endif %}
    {% endfor %}
  {% endfor %}
  {{ return(left) }}
{% endmacro %}
