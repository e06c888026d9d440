{# The business key's columns as a key check's SQL writes them, against the keys' relation `alias`: `keys` (quoted),
   `qualified` (alias.column), `same_key` (bf_model.column = alias.column, each) and `texts` (each cast to text as
   bf_key_<n>). #}
{% macro _key_columns_sql(scope, alias) %}
  {% set string_type = dbt.type_string() %}
  {% set found = {'keys': [], 'qualified': [], 'same_key': [], 'texts': []} %}
  {% for column in scope.key_columns %}
    {% set quoted = adapter.quote(column.name) %}
    {% do found['keys'].append(quoted) %}
    {% do found.qualified.append(alias ~ '.' ~ quoted) %}
    {% do found.same_key.append('bf_model.' ~ quoted ~ ' = ' ~ alias ~ '.' ~ quoted) %}
    {% do found.texts.append('cast(' ~ alias ~ '.' ~ quoted ~ ' as ' ~ string_type ~ ') as bf_key_' ~ loop.index) %}
  {% endfor %}
  {{ return(found) }}
{% endmacro %}
