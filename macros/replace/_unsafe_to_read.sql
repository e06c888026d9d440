{# Why reading `relation` is not safe, as _check_source judges it, without refusing: [] when it is a base table only
   its owner may write and whose read runs no code. clean and rollback read a backup only to compare it with the
   target; one they cannot read safely they keep, or refuse to act on. #}
{% macro _unsafe_to_read(relation, target_relation) %}
  {% set kind = adapter.dispatch('_relation_kind', 'dbt_backfill')(relation) %}
  {% if kind != 'table' %}{{ return([('a ' ~ kind) if kind else 'gone']) }}{% endif %}
  {% set unreadable = adapter.dispatch('_not_readable', 'dbt_backfill')(relation) %}
  {% if unreadable %}{{ return([unreadable]) }}{% endif %}
  {% set reasons = [] %}
  {% set writers = dbt_backfill._other_writers(relation) %}
  {% if writers %}{% do reasons.append('writable by ' ~ writers | join(', ')) %}{% endif %}
  {% do reasons.extend(adapter.dispatch('_code_on_read', 'dbt_backfill')(relation, target_relation)) %}
  {{ return(reasons) }}
{% endmacro %}
