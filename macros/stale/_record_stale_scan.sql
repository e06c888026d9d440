{#
  The scan's one write: a `stale_scan` row in the target's audit trail, committed. Its detail is what the next scan
  starts from (_last_stale_scan): the code it read (binding), when it read (read_at), each partition it vouches for
  and since when (every partition it looked at that is not stale, as of this read; the last scan's other vouches as
  they were), and each tracked input's rows per day that had changed by this read (what shows a deletion next time).
#}
{% macro _record_stale_scan(relation, scope, values, model, result, binding, vouched, changes) %}
  {% set family = dbt_backfill._type_family(scope.partition_column.data_type) %}
  {% set last = vouched.last_scan %}
  {% set since = {} %}
  {% if last and last.same_code %}{% do since.update(last.vouched) %}{% endif %}
  {% set stale_values = result.stale | map(attribute='value') | list %}
  {% for value in values %}
    {% if value in stale_values %}{% do since.pop(value, none) %}{% else %}{% do since.update({value: result.read_at}) %}{% endif %}
  {% endfor %}
  {% set by_instant = {} %}
  {% for value, at in since.items() %}{% do by_instant.setdefault(at, []).append(value) %}{% endfor %}
  {% set vouches = [] %}
  {% for at in by_instant.keys() | sort %}
    {% set order = {} %}
    {% for value in by_instant[at] %}{% do order.update({value: dbt_backfill._ordering_key(value, family)}) %}{% endfor %}
    {% do vouches.append([at, dbt_backfill._range_items(dbt_backfill._by_ordinal(order), family)]) %}
  {% endfor %}
  {% set kept = {} %}
  {% for name, change in changes.items() %}
    {% set days = {} %}
    {% for day, seen in change.days.items() %}{% do days.update({day: seen.kept_now}) %}{% endfor %}
    {% do kept.update({name: days}) %}
  {% endfor %}
  {% do dbt_backfill._ensure_audit_table(relation) %}
  {% do dbt_backfill.record_audit_event(relation, 'stale_scan', dbt_backfill._new_run_id()[:-4] ~ 's' ~ invocation_id[:3], {
      'model': model, 'outcome': ('stale: ' ~ result.ranges) if result.stale else 'none stale',
      'detail': tojson({'read_at': result.read_at, 'binding': binding, 'scope': result.scope.ranges,
                        'stale': dbt_backfill._range_items(stale_values, family), 'vouched': vouches, 'kept': kept})}) %}
  {% do dbt_backfill._commit() %}
{% endmacro %}
