{# The audit trail, oldest first, optionally for one model; emits `history`: [{column: text}].
   dbt run-operation dbt_backfill.audit_history --args '{target: {database, schema, identifier} | null, model: ...}' #}
{% macro audit_history(audit_schema=none, model=none, limit=1000) %}
  {% do dbt_backfill.refuse_unsafe_search_path() %}
  {% set string_type = dbt.type_string() %}
  {% set audit = adapter.get_relation(database=target.database, schema=audit_schema or (target.schema ~ '_backfill'),
                                      identifier='dbt_backfill_audit') %}
  {% set rows = [] %}
  {% if audit is not none %}
    {% set query %}
      select cast(recorded_at as {{ string_type }}) as recorded_at, run_id, model, target, event, partition_value,
             packet_sha256, approved_by, fingerprint_before, fingerprint_after, duration_ms, outcome, detail
      from {{ audit }}
      {% if model %}where model = {{ dbt_backfill._sql_literal(model) }}{% endif %}
      order by recorded_at, run_id
      limit {{ limit | int }}
    {% endset %}
    {% set table = dbt_backfill._execute(query) %}
    {% for row in table.rows %}
      {% set record = {} %}
      {% for name in table.column_names %}{% do record.update({name: row[name]}) %}{% endfor %}
      {% do rows.append(record) %}
    {% endfor %}
  {% endif %}
  {% do dbt_backfill._emit_result('history', {'audit': dbt_backfill._relation_name(audit) if audit else none, 'events': rows}) %}
{% endmacro %}
