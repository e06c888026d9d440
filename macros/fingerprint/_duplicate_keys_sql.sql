{# One row per key of `relation` (the rows `where` selects) that more than one row holds; a null key is not one. #}
{% macro _duplicate_keys_sql(relation, key_columns, where) %}
  {% set null_key_tests = [] %}
  {% set key_list = [] %}
  {% for column in key_columns %}
    {% do null_key_tests.append(adapter.quote(column.name) ~ ' is null') %}
    {% do key_list.append(adapter.quote(column.name)) %}
  {% endfor %}
  {{ return('select 1 as bf_duplicated from ' ~ relation ~ ' where not (' ~ null_key_tests | join(' or ') ~ ')'
            ~ ((' and (' ~ where ~ ')') if where else '') ~ ' group by ' ~ key_list | join(', ') ~ ' having count(*) > 1') }}
{% endmacro %}
