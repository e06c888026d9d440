{#
  An additive column's value as its total sums it, so that the total is exact and does not depend on the order the
  engine adds the rows: an integer or a decimal as it is; a float as the decimal its text spells (the shortest text
  that reads back as the same value, what canonical_text prints: PostgreSQL with extra_float_digits pinned, DuckDB
  and Spark by default), in decimal(38, 18). A sum of the floats themselves depends on the order (a parallel scan's
  order is not fixed: (0.1 + 0.2) + 0.3 is 0.6000000000000001 and 0.1 + (0.2 + 0.3) is 0.6), and no decimal type
  holds every double on every engine, so a float that decimal(38, 18) does not hold exactly (20 integer digits, 18
  decimal places; NaN, infinity) is counted, and fingerprint_relation refuses its total (_exact_totals).
  Returns [the value's SQL, SQL true where a float's value is not held exactly].
#}
{% macro _additive_value(column) %}
  {% set quoted = adapter.quote(column.name) %}
  {% if dbt_backfill._type_family(column.data_type) != 'float' %}{{ return([quoted, 'false']) }}{% endif %}
  {% set string_type = dbt.type_string() %}
  {# NaN compares above every number on the three engines, so `abs(x) < 1e20` also leaves out NaN and infinity #}
  {% set value = 'case when abs(' ~ quoted ~ ') < 1e20 then cast(cast(' ~ quoted ~ ' as ' ~ string_type
                 ~ ') as decimal(38, 18)) end' %}
  {# read back through its text (decimal to text to float is correctly rounded on every engine; a direct cast of a
     38-digit decimal may not be) #}
  {% set inexact = '(' ~ quoted ~ ' is not null and (' ~ value ~ ' is null or cast(cast(' ~ value ~ ' as ' ~ string_type
                   ~ ') as ' ~ column.data_type ~ ') <> ' ~ quoted ~ '))' %}
  {{ return([value, inexact]) }}
{% endmacro %}
