{#
  The columns of several relations (a plan's builds, apply's approved stages) listed in one statement, where the
  engine can, instead of one listing each (_relation_columns; issue 57: a listing was two statements a partition of a
  plan), and remembered for the invocation as _relation_columns remembers them, checked alike. The same rows the
  adapter's own listing reads (dbt-duckdb's DESCRIBE, dbt-postgres's information_schema.columns), made into the
  adapter's Column as it makes them. A relation the listing finds no column of is left to its own listing (which
  says it is missing). Elsewhere (Spark) each relation is listed when first read, as before.
#}
{% macro _remember_columns(relations) %}
  {% set remembered = graph.setdefault('dbt_backfill_columns', {}).setdefault(invocation_id, {}) %}
  {% set unread = [] %}
  {% for relation in relations if dbt_backfill._columns_key(relation) not in remembered %}{% do unread.append(relation) %}{% endfor %}
  {% if unread | length < 2 %}{{ return(none) }}{% endif %}
  {% set sql = adapter.dispatch('_listing_of_relations', 'dbt_backfill')(unread) %}
  {% if not sql %}{{ return(none) }}{% endif %}
  {% set listed = {} %}
  {% for row in dbt_backfill._execute(sql).rows %}
    {% do listed.setdefault(row['bf_relation'] | int, []).append(api.Column(row[2], row[3], row[4], row[5], row[6])) %}
  {% endfor %}
  {% for relation in unread %}
    {% if loop.index0 in listed %}{% do dbt_backfill._relation_columns(relation, listed[loop.index0]) %}{% endif %}
  {% endfor %}
{% endmacro %}

{# The statement listing `relations`' columns: (bf_relation: the relation's index, bf_position, column_name,
   data_type, character_maximum_length, numeric_precision, numeric_scale), by relation and position; none where
   the engine lists each relation alone. #}
{% macro default___listing_of_relations(relations) %}
  {{ return(none) }}
{% endmacro %}

{% macro duckdb___listing_of_relations(relations) %}
  {% set parts = [] %}
  {% for relation in relations %}
    {% do parts.append('select ' ~ loop.index0 ~ ' as bf_relation, row_number() over () as bf_position, column_name, '
        ~ 'column_type as data_type, cast(null as bigint) as character_maximum_length, cast(null as bigint) as '
        ~ 'numeric_precision, cast(null as bigint) as numeric_scale from (describe ' ~ relation.render() ~ ')') %}
  {% endfor %}
  {{ return('select * from (' ~ parts | join(' union all ') ~ ') bf_listing order by bf_relation, bf_position') }}
{% endmacro %}

{% macro postgres___listing_of_relations(relations) %}
  {% set parts = [] %}
  {% for relation in relations %}
    {% do parts.append('select ' ~ loop.index0 ~ ' as bf_relation, ordinal_position as bf_position, column_name, data_type, '
        ~ 'character_maximum_length, numeric_precision, numeric_scale from ' ~ relation.information_schema('columns')
        ~ ' where table_name = ' ~ dbt_backfill._sql_literal(relation.identifier)
        ~ ' and table_schema = ' ~ dbt_backfill._sql_literal(relation.schema)) %}
  {% endfor %}
  {{ return('select * from (' ~ parts | join(' union all ') ~ ') bf_listing order by bf_relation, bf_position') }}
{% endmacro %}
