{#
  An approval holds for the rows a build gave from the source as the plan pinned it, and only until the packet's
  deadline. Refused here, before anything is written (the target unchanged):
    - after `expires_at` (meta.backfill.approval_ttl after the plan), with the date;
    - when any relation the builds read (source.pinned) no longer reads as the plan's last read of it
      (source.after_build): the approved rows may no longer be what a build gives. `allow_source_drift` (a
      reason) applies them anyway; the allowance is recorded (`source_drift_allowed`, with what moved).
  A packet that records no deadline or no pin was not written by this version's plan: refused too.
#}
{% macro _refuse_stale_approval(target_relation, run_id, audit_fields, source, expires_at, allow_source_drift) %}
  {% if not expires_at or not source or source.get('pinned') is none %}
    {% do dbt_backfill._refuse('packet_outdated',
        'the packet records no ' ~ ('deadline' if not expires_at else 'source pin') ~ ' for its approval: it was written by '
        ~ 'an earlier version of dbt-backfill. Plan again. The target is unchanged.', {'run_id': run_id}) %}
  {% endif %}
  {% if dbt_backfill._deadline_passed(expires_at) %}
    {% do dbt_backfill._refuse('approval_expired',
        'the approval of run ' ~ run_id ~ ' expired at ' ~ expires_at ~ ' (meta.backfill.approval_ttl after the plan): '
        ~ 'the source may have changed in ways the plan cannot see. Plan again and approve the new packet. '
        ~ 'The target is unchanged.', {'run_id': run_id, 'expires_at': expires_at}) %}
  {% endif %}
  {% set now = dbt_backfill._fingerprint_sources(source.pinned) %}
  {% set moved = dbt_backfill._moved_sources(source.after_build, now) %}
  {% if moved %}
    {% set described = [] %}
    {% for m in moved %}{% do described.append(m.relation ~ ': ' ~ m.first ~ ' at the plan, ' ~ m.second ~ ' now') %}{% endfor %}
    {% if not allow_source_drift %}
      {% do dbt_backfill._refuse('source_drift',
          'the source changed since the plan (' ~ described | join('; ') ~ '): the approved rows may no longer be what a '
          ~ 'build gives. Plan again (or, knowing why, apply with --allow-source-drift "<reason>"; pure dbt: apply_backfill '
          ~ 'with allow_source_drift: "<reason>"). The target is unchanged.',
          {'moved': moved}) %}
    {% endif %}
    {% do dbt_backfill.record_audit_event(target_relation, 'source_drift_allowed', run_id, dbt_backfill._merged(audit_fields,
        {'outcome': allow_source_drift, 'detail': described | join('; ')})) %}
    {% do dbt_backfill._commit() %}
  {% endif %}
{% endmacro %}
