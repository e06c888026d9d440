{# A run's id: the UTC time of the plan and a letter and three hex digits of the invocation. Never all digits: YAML
   1.1 reads 20261129_181848_1234 as an integer, which would break the commands printed with it, typed as they are.
   Lower case, digits and underscores: safe inside an unquoted identifier on every engine (stages are named by it). #}
{% macro _new_run_id() %}
  {{ return(modules.datetime.datetime.utcnow().strftime('%Y%m%d_%H%M%S_') ~ 'p' ~ invocation_id[:3]) }}
{% endmacro %}
