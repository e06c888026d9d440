{#
  The named columns of a relation, as the relation itself declares them, in the order the names are given.
  Names match case-insensitively (PostgreSQL folds unquoted names to lower case, YAML keeps what was typed).
  Raises naming the missing columns.
#}
{% macro _columns(relation, names, purpose) %}
  {% set by_name = {} %}
  {% for column in dbt_backfill._relation_columns(relation) %}
    {% do by_name.update({column.name | lower: column}) %}
  {% endfor %}
  {% set found = [] %}
  {% set missing = [] %}
  {% for name in names %}
    {% if (name | lower) in by_name %}
      {% do found.append(by_name[name | lower]) %}
    {% else %}
      {% do missing.append(name) %}
    {% endif %}
  {% endfor %}
  {% if missing %}
    {% do dbt_backfill._fail(dbt_backfill._relation_name(relation) ~ " has no column " ~ (missing | join(', '))
        ~ " (named as " ~ purpose ~ "). Nothing was changed.") %}
  {% endif %}
  {{ return(found) }}
{% endmacro %}

{# Every column name of a relation as the relation declares it (a quoted "Amount" keeps its case: it is quoted
   again in every statement), sorted case-insensitively: the material columns are drawn from this. #}
{% macro _column_names(relation) %}
  {% set names = [] %}
  {% for column in dbt_backfill._relation_columns(relation) %}
    {% do names.append(column.name) %}
  {% endfor %}
  {{ return(names | sort(case_sensitive=false)) }}
{% endmacro %}

{#
  adapter.get_columns_in_relation, read once per relation for the rest of this dbt invocation: an operation reads the
  same few relations' columns dozens of times (75 catalog queries in a three-partition plan, each a `describe
  extended` of ~0.15 s on Spark). Kept in dbt's `graph` (the one context object that lives for the invocation) under
  the invocation's id; the helpers that create or drop a relation forget it (_forget_columns), and so does every read
  of a relation someone else writes (the sources' pin, the live job's state table), whose columns are part of what
  the read compares. The statement that writes a Spark partition reads the target's columns itself.
#}
{% macro _relation_columns(relation) %}
  {% set remembered = graph.setdefault('dbt_backfill_columns', {}).setdefault(invocation_id, {}) %}
  {% set name = dbt_backfill._columns_key(relation) %}
  {% if name not in remembered %}
    {% set columns = adapter.get_columns_in_relation(relation) %}
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

{% macro _forget_columns(relation) %}
  {% do graph.get('dbt_backfill_columns', {}).get(invocation_id, {}).pop(dbt_backfill._columns_key(relation), none) %}
{% endmacro %}

{# Database, schema and name as given, unquoted: one key however the relation was rendered. #}
{% macro _columns_key(relation) %}
  {{ return([relation.database or '', relation.schema or '', relation.identifier or ''] | join('\x1f')) }}
{% endmacro %}
