{# Why reading `relation` is not safe, as _check_source judges it, without refusing: [] when it is a base table only
   its owner may write and whose read runs no code. clean and rollback read a backup only to compare it with the
   target; one they cannot read safely they keep, or refuse to act on. #}
{% macro _unsafe_to_read(relation, target_relation) %}
  {% set facts = dbt_backfill._source_facts([relation], target_relation)[0] %}
  {% if facts.kind != 'table' %}{{ return([('a ' ~ facts.kind) if facts.kind else 'gone']) }}{% endif %}
  {% set unreadable = adapter.dispatch('_not_readable', 'dbt_backfill')(relation) %}
  {% if unreadable %}{{ return([unreadable]) }}{% endif %}
  {% set reasons = [] %}
  {% if facts.writers %}{% do reasons.append('writable by ' ~ facts.writers | join(', ')) %}{% endif %}
  {% do reasons.extend(facts.code) %}
  {{ return(reasons) }}
{% endmacro %}
