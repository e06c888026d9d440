{# {lower-cased column name: its type as the relation declares it, in a form a cast accepts} #}
{% macro _declared_types(relation) %}
  {{ return(adapter.dispatch('_declared_types', 'dbt_backfill')(relation)) }}
{% endmacro %}

{% macro default___declared_types(relation) %}
  {% set types = {} %}
  {% for column in dbt_backfill._relation_columns(relation) %}
    {% do types.update({column.name | lower: column.data_type}) %}
  {% endfor %}
  {{ return(types) }}
{% endmacro %}

{# PostgreSQL: information_schema (and so dbt's columns) calls every enum, domain or extension type USER-DEFINED
   and every array ARRAY, which would make two different ones look alike; format_type names the type itself. #}
{% macro postgres___declared_types(relation) %}
  {% set types = {} %}
  {% set query %}
    select a.attname as name, pg_catalog.format_type(a.atttypid, a.atttypmod) as declared
    from pg_catalog.pg_attribute a
    where a.attrelid = pg_catalog.to_regclass({{ dbt_backfill._sql_literal(adapter.quote(relation.schema) ~ '.' ~ adapter.quote(relation.identifier)) }})
      and a.attnum > 0 and not a.attisdropped
  {% endset %}
  {% for row in dbt_backfill._execute(query).rows %}
    {% do types.update({row['name'] | lower: row['declared']}) %}
  {% endfor %}
  {{ return(types) }}
{% endmacro %}
