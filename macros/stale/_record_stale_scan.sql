{#
  The scan's one write: a `stale_scan` row in the target's audit trail, committed; none where the target has no
  audit table (a read-only command never makes it: _audit_table_or_note says so in the result). Its detail is what
  the next scan starts from (_last_stale_scan):
    binding, read_at  the code it read and when;
    vouched           each partition a scan vouches for, and since when: those this scan compared and found equal, and
                      those an earlier scan vouched for in which it found nothing changed, as of this read; the last
                      scan's vouches for partitions outside this scan, as they were. Never a partition only --since
                      vouched for (the user's word holds for the scan it was given to);
    held              for each partition vouched for, its checksum (_partition_checksums): of the rows it compared,
                      read with their fingerprint; else as it read them before comparing anything, equal to the
                      last scan's: what the next scan holds the vouch against (_check_vouch_basis);
    stale             the partitions found stale, this scan's and the last scan's outside this scan (whatever code
                      the last scan read);
    kept              per tracked input and day of its event_time: [rows whose change time is at or before this read,
                      rows with none or a later one] (what shows a deletion next time, _input_changes). A day some
                      partition outside this scan reads keeps the last scan's count: a count moved by a deletion this
                      scan did not settle stays moved for the next one.
#}
{% macro _record_stale_scan(relation, scope, looked_at, model, result, binding, vouched, changes, candidates, windowing,
                            compared) %}
  {% set family = dbt_backfill._type_family(scope.partition_column.data_type) %}
  {% set values = looked_at['values'] %}
  {% set last = vouched.last_scan if vouched.last_scan and vouched.last_scan.same_code else none %}
  {% set stale_values = result.stale | map(attribute='value') | list %}
  {% set at_by_value, held = {}, {} %}
  {% if last %}{% do at_by_value.update(last.vouched) %}{% do held.update(last.held) %}{% endif %}
  {% for value in values %}
    {% set vouch = vouched.by_value.get(value) %}
    {% if value not in stale_values and (value in candidates or (vouch and vouch.scanned)) %}
      {% do at_by_value.update({value: result.read_at}) %}
      {# the rows it vouches for: those it compared, their checksum read with their fingerprint (a write between the
         first read and the comparison, later undone, must not match it); else as _check_vouch_basis read them #}
      {% do held.update({value: compared.by_value[value].target.checksum if value in candidates
                                else vouched.basis[value]}) %}
    {% else %}
      {% do at_by_value.pop(value, none) %}{% do held.pop(value, none) %}
    {% endif %}
  {% endfor %}
  {% for value in held.keys() | list if value not in at_by_value %}{% do held.pop(value) %}{% endfor %}
  {% set by_instant = {} %}
  {% for value, at in at_by_value.items() %}{% do by_instant.setdefault(at, []).append(value) %}{% endfor %}
  {% set vouches = [] %}
  {% for at in by_instant.keys() | sort %}
    {% do vouches.append([at, dbt_backfill._range_items(dbt_backfill._in_order(by_instant[at], family), family)]) %}
  {% endfor %}
  {# a finding outlives a change of code (issue 54): only a write, or a scan that compares the partition, ends it #}
  {% set stale_now = stale_values + ((vouched.last_scan.stale | reject('in', values) | list) if vouched.last_scan else []) %}
  {% set complete = looked_at.how != 'as named' %}
  {% set kept = {} %}
  {% for name, change in changes.items() %}
    {% set counted = {} %}
    {% for day, seen in change.days.items() %}
      {% set settled = complete or (day != '*' and dbt_backfill._read_only_by(day, values, windowing)) %}
      {% set earlier = (last.kept.get(name) or {}).get(day) if last else none %}
      {% do counted.update({day: [seen.kept_now, seen.unsettled] if settled or earlier is none else earlier}) %}
    {% endfor %}
    {% for day, earlier in ((last.kept.get(name) or {}).items() if last else []) if day not in counted and not complete %}
      {% do counted.update({day: earlier}) %}
    {% endfor %}
    {% do kept.update({name: counted}) %}
  {% endfor %}
  {% if not dbt_backfill._audit_table_or_note(relation, model, result) %}{{ return(none) }}{% endif %}
  {% do dbt_backfill.record_audit_event(relation, 'stale_scan', dbt_backfill._new_run_id()[:-4] ~ 's' ~ invocation_id[:3], {
      'model': model, 'outcome': ('stale: ' ~ result.ranges) if result.stale else 'none stale',
      'detail': tojson({'read_at': result.read_at, 'binding': binding, 'scope': result.scope.ranges,
                        'stale': dbt_backfill._range_items(dbt_backfill._in_order(stale_now, family), family),
                        'vouched': vouches, 'held': held, 'kept': kept})}) %}
  {% do dbt_backfill._commit() %}
{% endmacro %}

{# True when every partition whose build reads `day` of a windowed input ([day - after, day + before]) is among
   `values`: a count of that day this scan settled for all of them. #}
{% macro _read_only_by(day, values, windowing) %}
  {% if windowing.mode != 'windowed' %}{{ return(false) }}{% endif %}
  {% set first = modules.datetime.date.fromisoformat(day) - modules.datetime.timedelta(days=windowing.after) %}
  {% for n in range(windowing.before + windowing.after + 1) %}
    {% if (first + modules.datetime.timedelta(days=n)).isoformat() not in values %}{{ return(false) }}{% endif %}
  {% endfor %}
  {{ return(true) }}
{% endmacro %}
