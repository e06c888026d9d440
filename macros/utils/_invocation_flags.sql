{# The flags a printed command repeats so that it runs as the one that printed it: ` --profile P` and
   ` --target T` where the invocation named them, ` --vars '{...}'` where it was given vars (as YAML that reads back
   as the same values: _as_yaml; quoted for the shell), else nothing. A project whose models need a var fails to
   parse without them, and the CLI passes dbt the --target and --vars it was given and nothing of its own, so one
   string serves a dbt command and a dbt-backfill one. A var dbt masks as a secret (from a DBT_ENV_SECRET_ variable)
   is printed masked, as dbt prints every line (docs/security.md). `for_cli`: for a dbt-backfill command, which
   takes no --profile (its dbt runs the project's own). #}
{% macro _invocation_flags(for_cli=false) %}
  {% set given = invocation_args_dict %}
  {% set flags = [] %}
  {% for name in (['target'] if for_cli else ['profile', 'target']) if given.get(name) %}
    {% do flags.append(' --' ~ name ~ ' ' ~ dbt_backfill._shell_word(given.get(name) | string)) %}
  {% endfor %}
  {% if given.get('vars') %}{% do flags.append(' --vars ' ~ dbt_backfill._shell_word(dbt_backfill._as_yaml(given.get('vars')))) %}{% endif %}
  {{ return(flags | join('')) }}
{% endmacro %}
