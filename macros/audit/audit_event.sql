{# Record one audit event from the CLI (a refusal decided in Python, an approval seen by apply), committed.
   dbt run-operation dbt_backfill.audit_event --args '{target: {...}, event: refused, run_id: ..., fields: {...}}' #}
{% macro audit_event(target, event, run_id, fields={}) %}
  {% do dbt_backfill.refuse_unsafe_search_path() %}
  {% set target_relation = dbt_backfill._relation(target) %}
  {% do dbt_backfill._ensure_audit_table(target_relation) %}
  {% if event == 'planned' %}
    {# a run's plan writes one packet: a second record for the run is refused, so no later call vouches for an edit #}
    {% set audit = dbt_backfill._audit_relation(target_relation) %}
    {% set earlier = dbt_backfill._execute('select count(*) from ' ~ audit ~ ' where event = \'planned\' and run_id = '
        ~ dbt_backfill._sql_literal(run_id) ~ ' and ' ~ dbt_backfill._trusted_writer(audit, target_relation)).rows[0][0] %}
    {% if earlier | int > 0 %}
      {% do dbt_backfill._refuse('packet_already_written', 'run ' ~ run_id ~ ' already has the packet its plan wrote recorded; '
          ~ 'a second record is refused. The target is unchanged.', {'run_id': run_id}) %}
    {% endif %}
  {% elif event == 'approved' %}
    {#
      An approval is recorded for a packet a plan of this target wrote (its `planned` or `packet_recorded` row holds
      the same SHA-256), and once per run: no call records an approval of content no plan wrote, or a second
      approver over the first.
    #}
    {% set audit = dbt_backfill._audit_relation(target_relation) %}
    {% set rows = dbt_backfill._execute('select event, packet_sha256 from ' ~ audit ~ ' where run_id = '
        ~ dbt_backfill._sql_literal(run_id) ~ " and event in ('planned', 'packet_recorded', 'approved')"
        ~ ' and ' ~ dbt_backfill._trusted_writer(audit, target_relation)).rows %}
    {% set planned = [] %}
    {% set approved = [] %}
    {% for row in rows %}
      {% if row[0] == 'approved' %}{% do approved.append(row[1]) %}{% else %}{% do planned.append(row[1]) %}{% endif %}
    {% endfor %}
    {% if fields.get('packet_sha256') not in planned %}
      {% do dbt_backfill._refuse('not_planned', 'no plan of ' ~ dbt_backfill._relation_name(target_relation) ~ ' wrote a packet '
          ~ 'of run ' ~ run_id ~ ' with sha256 ' ~ (fields.get('packet_sha256') or '')[:12] ~ '…: the approval is not recorded, the '
          ~ 'packet file is unchanged, and apply refuses this packet. Plan again. The target is unchanged.', {'run_id': run_id}) %}
    {% endif %}
    {% if approved %}
      {% do dbt_backfill._refuse('already_approved', 'run ' ~ run_id ~ ' already has its approval recorded; a second '
          ~ 'record is refused and the packet file is unchanged. The target is unchanged.', {'run_id': run_id}) %}
    {% endif %}
  {% endif %}
  {% do dbt_backfill._fault_point('recording_' ~ event) %}
  {% do dbt_backfill.record_audit_event(target_relation, event, run_id, fields) %}
  {% if event == 'planned' and fields.get('cascade_of') %}
    {# a cascade's child: the root whose approval covers it, as its plan recorded it (a plan row: the planner's word).
       apply believes a claim of a root only where this row names it (_refuse_unproven_approval) #}
    {% do dbt_backfill.record_audit_event(target_relation, 'cascade_planned', run_id, {'model': fields.get('model'),
        'packet_sha256': fields.get('packet_sha256'), 'detail': tojson(fields.cascade_of)}) %}
  {% endif %}
  {% if event == 'approved' %}
    {# `approve --target` is also the approver's own act: the role it ran as gave it (approve_backfill counts these) #}
    {% do dbt_backfill.record_audit_event(target_relation, 'approval_given', run_id, dbt_backfill._merged(fields,
        {'detail': 'approved with the login of the role that recorded it (recorded when approved)'})) %}
  {% endif %}
  {% do dbt_backfill._commit() %}
  {% do dbt_backfill._emit_result('recorded', {'event': event}) %}
{% endmacro %}
