{#
  The packet plan_backfill recorded for `run_id`: {packet, sha256, outcome (the review's verdict, as the row says
  it)}, the packet in the shape both paths write
  (_packet_document; one recorded before that shape is read as it), the SHA-256 recomputed by the database over
  the recorded text (so an edit of the row shows). Looked up in the audit table of every model with
  meta.backfill, since a run id names no table. Refuses when more than one packet is recorded, and when none is
  unless `required` is false (then none is returned: clean_backfill of a plan that wrote no packet).
#}
{% macro _recorded_packet(run_id, required=true, nothing_done='The target is unchanged.') %}
  {% if run_id is not string %}
    {% do dbt_backfill._fail('run_id ' ~ tojson(run_id) ~ ' was read by YAML as ' ~ dbt_backfill._yaml_kind(run_id)
        ~ ', not as the run id it was typed as' ~ (': YAML reads an id of digits and underscores as an integer'
        if run_id is number else '') ~ '. Quote it: {run_id: \'<the run id>\'}. ' ~ nothing_done) %}
  {% endif %}
  {% do dbt_backfill.refuse_unsafe_search_path() %}
  {% set audits = dbt_backfill._audit_relations() %}
  {% set found = [] %}
  {% for name, trail in audits.items() %}
    {% set audit = trail.audit %}
    {% if adapter.get_relation(database=audit.database, schema=audit.schema, identifier=audit.identifier) is not none %}
      {% do dbt_backfill.refuse_untrusted_audit_table(audit, targets=trail.targets) %}
      {% set rows = dbt_backfill._execute('select detail, outcome, ' ~ dbt_backfill.sha256_hex('detail') ~ ' as digest from ' ~ audit
          ~ ' where event = \'packet_recorded\' and run_id = ' ~ dbt_backfill._sql_literal(run_id)
          ~ ' and ' ~ dbt_backfill._trusted_writer(audit)).rows %}
      {% for row in rows %}
        {% set packet = fromjson(row['detail']) %}
        {# recorded before the packet had one shape: read as the shape recorded since #}
        {% set packet = packet if 'target_relation' in packet else dbt_backfill._packet_from_plan_shape(packet) %}
        {% do found.append({'packet': packet, 'sha256': row['digest'], 'outcome': row['outcome']}) %}
      {% endfor %}
    {% endif %}
  {% endfor %}
  {% do dbt_backfill._commit() %}
  {% if not found and not required %}{{ return(none) }}{% endif %}
  {% if found | length != 1 %}
    {% do dbt_backfill._refuse('unknown_run', ('no packet is' if not found else (found | length) ~ ' packets are') ~ ' recorded for run '
        ~ tojson(run_id) ~ ' (looked in ' ~ (audits.keys() | list | join(', ') or 'no audit table') ~ ').'
        ~ (' Run plan_backfill first.' if not found else '') ~ ' ' ~ nothing_done, {'run_id': run_id}) %}
  {% endif %}
  {{ return(found[0]) }}
{% endmacro %}

{#
  A packet plan_backfill recorded before the packet had one shape (the plan itself, with `watermark_config`), read
  as the shape recorded since, so that a rollback, verify or clean weeks later reads it as any other, and an apply
  refuses it in the words the review records since (_packet_refusal). Its SHA-256 stays the one of the text as
  recorded.
#}
{% macro _packet_from_plan_shape(recorded) %}
  {% set packet = recorded.copy() %}
  {% set partitions = [] %}
  {% for p in recorded.partitions %}
    {% set upgraded = p.copy() %}
    {% do upgraded.update({'stage_relation': p.stage, 'stage_b_relation': p.stage_b, 'backup_relation': p.backup}) %}
    {% do partitions.append(upgraded) %}
  {% endfor %}
  {% set watermark = none %}
  {% if recorded.watermark %}
    {% set watermark = {'config': recorded.watermark_config or {}} %}
    {% do watermark.update(recorded.watermark) %}
  {% endif %}
  {% set review = (recorded.review or {}).copy() %}
  {% do review.update({'refusal': dbt_backfill._packet_refusal(recorded)}) %}
  {% do packet.update({'target_relation': recorded.target, 'partitions': partitions, 'watermark': watermark,
                       'review': review}) %}
  {{ return(packet) }}
{% endmacro %}
