{# The totals of fingerprint_relation's row, as exact decimal text with trailing zeros trimmed (a float's total is a
   decimal(38, 18)): refused, naming the column, where a float's values are not all held exactly. #}
{% macro _exact_totals(row, additive_columns) %}
  {% set totals = {} %}
  {% for column in additive_columns %}
    {% set inexact = (row['inexact_' ~ loop.index] or 0) | int %}
    {% if inexact %}
      {% do dbt_backfill._fail("additive column " ~ column.name ~ " (" ~ column.data_type ~ ") holds " ~ inexact
          ~ " value(s) its total cannot hold exactly: a float is totalled as the decimal its text spells, with at most "
          ~ "20 integer digits and 18 decimal places, and no NaN or infinity (a sum of the floats themselves depends on "
          ~ "the order they are added). Leave " ~ column.name ~ " out of additive (the fingerprint still compares each "
          ~ "of its values exactly), or cast it to a decimal in the model.") %}
    {% endif %}
    {% set text = row['total_' ~ loop.index] | string %}
    {% if dbt_backfill._type_family(column.data_type) == 'float' and '.' in text %}
      {% set text = text.rstrip('0').rstrip('.') %}
      {% set text = '0' if text in ('-0', '') else text %}
    {% endif %}
    {% do totals.update({column.name | lower: text}) %}
  {% endfor %}
  {{ return(totals) }}
{% endmacro %}
