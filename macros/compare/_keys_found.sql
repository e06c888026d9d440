{# The keys a key check's statement read (`rows`: bf_key_1.. for `key_columns`, bf_also_in), as {key, also_in}; a row
   whose first key column is null is no key found (the left join of _commitment_and_keys_outside when none is: an
   equality join finds no null key). #}
{% macro _keys_found(rows, key_columns) %}
  {% set found = [] %}
  {% for row in rows if row['bf_key_1'] is not none %}
    {% set key = [] %}
    {% for column in key_columns %}{% do key.append(row['bf_key_' ~ loop.index] | string) %}{% endfor %}
    {% do found.append({'key': key | join('|'), 'also_in': row['bf_also_in'] if row['bf_also_in'] is not none else 'a NULL partition'}) %}
  {% endfor %}
  {{ return(found) }}
{% endmacro %}
