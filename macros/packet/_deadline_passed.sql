{# Whether `deadline` (as _approval_deadline writes it) has passed, by this machine's clock in UTC. #}
{% macro _deadline_passed(deadline) %}
  {{ return(modules.datetime.datetime.utcnow().replace(microsecond=0).isoformat() ~ '+00:00' > deadline | string) }}
{% endmacro %}
