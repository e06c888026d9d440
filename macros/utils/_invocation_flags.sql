{# The flags a printed command repeats so that it runs as the one that printed it: ` --target T` where the
   invocation named a target, ` --vars '{...}'` where it was given vars (as JSON, which YAML reads; quoted for the
   shell), else nothing. A project whose models need a var fails to parse without them, and the CLI passes its own
   --target and --vars to dbt as given, so one string serves a dbt command and a dbt-backfill one. #}
{% macro _invocation_flags() %}
  {% set given = invocation_args_dict %}
  {% set flags = [] %}
  {% if given.get('target') %}{% do flags.append(' --target ' ~ dbt_backfill._shell_word(given.get('target') | string)) %}{% endif %}
  {% if given.get('vars') %}{% do flags.append(' --vars ' ~ dbt_backfill._shell_word(tojson(given.get('vars')))) %}{% endif %}
  {{ return(flags | join('')) }}
{% endmacro %}
