{#
  adapter.get_columns_in_relation, read once per relation for the rest of this dbt invocation: an operation reads the
  same few relations' columns dozens of times (75 catalog queries in a three-partition plan, each a `describe
  extended` of ~0.15 s on Spark). Kept in dbt's `graph` (the one context object that lives for the invocation) under
  the invocation's id; the helpers that create or drop a relation forget it (_forget_columns), and so does every read
  of a relation someone else writes (the sources' pin, the live job's state table), whose columns are part of what
  the read compares. The statement that writes a Spark partition reads the target's columns itself.
  `listed`: the relation's columns as one listing of several relations read them (_remember_columns), taken instead
  of a listing of its own, and checked alike.
#}
{% macro _relation_columns(relation, listed=none) %}
  {% set remembered = graph.setdefault('dbt_backfill_columns', {}).setdefault(invocation_id, {}) %}
  {% set name = dbt_backfill._columns_key(relation) %}
  {% if name not in remembered %}
    {% set columns = listed if listed is not none else adapter.get_columns_in_relation(relation) %}
    {# adapter.quote wraps a name in quotes without doubling one inside it: a name holding a quote character (or a
       control character) would end its identifier early in every statement built from it #}
    {% for column in columns if modules.re.search('["`\\x00-\\x1f]', column.name) %}
      {% do dbt_backfill._fail(dbt_backfill._relation_name(relation) ~ ' has a column named ' ~ tojson(column.name)
          ~ ', which holds a quote or control character: dbt-backfill cannot quote it safely in SQL. Rename it. '
          ~ 'Nothing was changed.') %}
    {% endfor %}
    {% do remembered.update({name: columns}) %}
  {% endif %}
  {{ return(remembered[name]) }}
{% endmacro %}
