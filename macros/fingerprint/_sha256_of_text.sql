{# Lower-case hex SHA-256 of a text, computed by the database (Jinja has no SHA-256). #}
{% macro _sha256_of_text(text) %}
  {{ return(dbt_backfill._execute('select ' ~ dbt_backfill.sha256_hex(dbt_backfill._sql_literal(text)) ~ ' as digest').rows[0]['digest']) }}
{% endmacro %}
