{# Who ran a plain dbt command, for the audit trail: the target's database user, else the OS user ($USER). The
   pure-dbt path and the full-refresh guard have no --by; dbt Cloud runs as the job's connection user. #}
{% macro _invoking_user(command) %}
  {{ return(command ~ ' as ' ~ (target.get('user') or env_var('USER', 'an unknown user'))) }}
{% endmacro %}
