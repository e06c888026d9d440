{# The package's version; the Python plugin refuses to drive a package of another version (checked by a test
   against dbt_project.yml and pyproject.toml). #}
{% macro _version() %}
  {{ return('0.1.0') }}
{% endmacro %}
