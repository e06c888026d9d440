{# The SQL of a row's digest over `columns` (each column's canonical text, in order: _row_digest), built once per
   invocation for each list of names and types (_memo): a fingerprint and a commitment of every partition ask for
   the same text, and building it again cost two macro calls a column each time (issue 57). #}
{% macro _row_digest_of_columns(columns) %}
  {% set remembered = dbt_backfill._memo('row_digest_of_columns') %}
  {% set signature = [] %}
  {% for column in columns %}{% do signature.append([column.name, column.data_type | string]) %}{% endfor %}
  {# JSON: no name or type, whatever characters it holds, can make two lists one key #}
  {% set key = tojson(signature) %}
  {% if key not in remembered %}
    {% set row_fields = [] %}
    {% for column in columns %}{% do row_fields.append(dbt_backfill.canonical_text(column.name, column.data_type)) %}{% endfor %}
    {% do remembered.update({key: dbt_backfill._row_digest(row_fields)}) %}
  {% endif %}
  {{ return(remembered[key]) }}
{% endmacro %}
