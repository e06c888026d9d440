{#
  An approval given with the approver's own login (issue 55): records an `approval_given` row for run `run_id`'s
  packet, which the warehouse attributes to the role that runs this (PostgreSQL: the audit trail's recorded_by, which
  no role can set to another's name) and dates by its own clock. Run by the approver with their own credentials (dbt
  Cloud's IDE runs with each developer's own), or by `dbt-backfill approve PACKET --target …`. A model whose policy
  names roles (meta.backfill.approval.roles) counts each member role once (_refuse_unproven_approval); elsewhere the
  row is a record, and on DuckDB, which has no roles, it proves no one (the key is the proof there).
  Refused when no plan of the target wrote a packet of that run with that SHA-256, when the packet is for review
  only (its review judged it BLOCK: _blocked_packet_refusal), or when this role's approval of the run is recorded
  (or revoked) already. `revoke: true` records `approval_revoked` instead: this role's approval
  of the run counts for nothing from then on (`dbt-backfill approve PACKET --revoke --target …`). Writes nothing else.

  dbt run-operation dbt_backfill.approve_backfill --args '{run_id: ..., approved_sha256: ...}'
  optional: revoke: true; approved_by: <name, for people to read> (the role is what counts); target_relation: the packet's
  target_relation (needed for a packet `dbt-backfill plan` wrote; plan_backfill's own packet is found by its run)
#}
{% macro approve_backfill(run_id, approved_sha256, approved_by=none, target_relation=none, revoke=false) %}
  {% if not execute %}{{ return('') }}{% endif %}
  {% do dbt_backfill.refuse_unsafe_search_path() %}
  {% set recorded = none if target_relation else dbt_backfill._recorded_packet(run_id) %}
  {% set target_relation = dbt_backfill._relation(target_relation or recorded.packet.target_relation) %}
  {% set audit = dbt_backfill._audit_relation(target_relation) %}
  {% set sha256 = approved_sha256 | string | trim | lower %}
  {% set planned = dbt_backfill._execute('select packet_sha256, model, outcome from ' ~ audit ~ ' where run_id = '
      ~ dbt_backfill._sql_literal(run_id) ~ " and event in ('planned', 'packet_recorded') and "
      ~ dbt_backfill._trusted_writer(audit, target_relation)).rows
      if adapter.get_relation(database=audit.database, schema=audit.schema, identifier=audit.identifier) else [] %}
  {# the row names the planned model, as every row of the run does: `history MODEL` lists it with them #}
  {% set model = (planned | selectattr('packet_sha256', 'equalto', sha256) | map(attribute='model') | first) or none %}
  {% if sha256 not in planned | map(attribute='packet_sha256') | list %}
    {% do dbt_backfill._refuse('not_planned', 'no plan of ' ~ dbt_backfill._relation_name(target_relation) ~ ' wrote a '
        ~ 'packet of run ' ~ run_id ~ ' with sha256 ' ~ sha256[:12] ~ '…: nothing is recorded. Approve the packet as '
        ~ 'planned. The target is unchanged.', {'run_id': run_id}) %}
  {% endif %}
  {# a packet written for review only is approved by no one, as `dbt-backfill approve` refuses it: in the words of
     its review's record (plan_backfill's packet), else by the verdict its plan row holds #}
  {% set outcome = planned | selectattr('packet_sha256', 'equalto', sha256) | map(attribute='outcome') | first %}
  {% set blocked = dbt_backfill._blocked_packet_refusal(recorded.packet if recorded else {}, outcome) %}
  {% if blocked and not revoke %}
    {% do dbt_backfill._refuse(blocked.reason, blocked.message, {'run_id': run_id}) %}
  {% endif %}
  {# the role the warehouse names this session by (on the engines without roles, the profile's user: a name only) #}
  {% set me = dbt_backfill._execute('select current_user as bf_me').rows[0]['bf_me'] if adapter.type() == 'postgres'
      else (target.user or 'dbt run-operation') %}
  {% if revoke %}
    {# withdrawn by the login that gave it: from now on it counts for nothing, for this run (plan again to approve anew) #}
    {% do dbt_backfill.record_audit_event(target_relation, 'approval_revoked', run_id, {
        'model': model, 'packet_sha256': sha256, 'approved_by': approved_by or me,
        'detail': 'revoked with the login of ' ~ me}) %}
    {% do dbt_backfill._commit() %}
    {% do log('Approval of run ' ~ run_id ~ ' by ' ~ me ~ ' revoked: it counts for nothing from now on.', info=true) %}
    {% do dbt_backfill._emit_result('approval_revoked', {'run_id': run_id, 'by': me}) %}
    {{ return('') }}
  {% endif %}
  {% if adapter.type() == 'postgres' and dbt_backfill._execute('select count(*) as n from ' ~ audit ~ " where event in "
        ~ "('approval_given', 'approval_revoked') and run_id = " ~ dbt_backfill._sql_literal(run_id) ~ ' and packet_sha256 = '
        ~ dbt_backfill._sql_literal(sha256) ~ ' and recorded_by = current_user').rows[0]['n'] | int > 0 %}
    {% do dbt_backfill._refuse('already_approved', 'run ' ~ run_id ~ '\'s approval by ' ~ me ~ ' is recorded already: '
        ~ 'one approval counts once. The target is unchanged.', {'run_id': run_id}) %}
  {% endif %}
  {% do dbt_backfill.record_audit_event(target_relation, 'approval_given', run_id, {
      'model': model, 'packet_sha256': sha256, 'approved_by': approved_by or me,
      'detail': 'approved with the login of ' ~ me ~ ' (recorded when approved)'}) %}
  {% do dbt_backfill._commit() %}
  {% do log('Approval of run ' ~ run_id ~ ' (packet sha256 ' ~ sha256[:12] ~ '…) recorded as given by ' ~ me
      ~ ', by the database\'s own attribution.', info=true) %}
  {% do dbt_backfill._emit_result('approval_given', {'run_id': run_id, 'by': me}) %}
{% endmacro %}
