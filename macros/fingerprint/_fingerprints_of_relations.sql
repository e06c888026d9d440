{#
  The fingerprint of each of `relations` (whole: a plan's builds, apply's approved stages) with the scope's columns,
  as _fingerprint_in_scope gives each alone, in one statement (and with `count_duplicate_keys`, one more) instead of
  one or two each: the rows of every relation, each read with its own columns' canonical text, in one union, summed
  by relation (issue 57). Relations whose scope columns are typed alike share a statement; a union would otherwise
  coerce one relation's additive values to another's type and print its total differently. A relation without rows
  gives no group: it is read alone, as before. Returns the fingerprints in the order of `relations`.
#}
{% macro _fingerprints_of_relations(relations, scope, count_duplicate_keys=false) %}
  {% do dbt_backfill._remember_columns(relations) %}
  {% set found = {} %}
  {% for members in dbt_backfill._typed_alike(relations, scope).values() %}
    {% if members | length > 1 %}
      {% do found.update(dbt_backfill._fingerprints_of_alike(members, scope, count_duplicate_keys)) %}
    {% endif %}
  {% endfor %}
  {% set fingerprints = [] %}
  {% for relation in relations %}
    {% do fingerprints.append(found.get(loop.index0 | string)
        or dbt_backfill._fingerprint_in_scope(relation, scope, count_duplicate_keys=count_duplicate_keys)) %}
  {% endfor %}
  {{ return(fingerprints) }}
{% endmacro %}

{# `relations` by the types of their scope columns: {signature: [{index (text), relation, own: _scope_columns_of}]}. #}
{% macro _typed_alike(relations, scope) %}
  {% set groups = {} %}
  {% for relation in relations %}
    {% set own = dbt_backfill._scope_columns_of(relation, scope) %}
    {% do groups.setdefault(dbt_backfill._types_signature(own.material + own.key_columns + own.additive), []).append({'index': loop.index0 | string, 'relation': relation, 'own': own}) %}
  {% endfor %}
  {{ return(groups) }}
{% endmacro %}

{# The fingerprints of relations typed alike (_typed_alike's members), by index: one statement over the union of their
   rows, and one more for the duplicate keys. #}
{% macro _fingerprints_of_alike(members, scope, count_duplicate_keys) %}
  {% set string_type = dbt.type_string() %}
  {% set first = members[0].own %}
  {% set parts, duplicates = [], [] %}
  {% for member in members %}
    {% set label = 'cast(' ~ dbt_backfill._sql_literal(member.index) ~ ' as ' ~ string_type ~ ')' %}
    {% do parts.append({'relation': member.relation, 'where': none, 'labels': [['bf_partition', label]]}) %}
    {% if count_duplicate_keys and first.key_columns %}
      {% do duplicates.append('select ' ~ label ~ ' as bf_partition, cast(count(*) as ' ~ string_type ~ ') as duplicate_keys from ('
          ~ dbt_backfill._duplicate_keys_sql(member.relation, member.own.key_columns, none) ~ ') bf_duplicated') %}
    {% endif %}
  {% endfor %}
  {% set duplicate_keys = {} %}
  {% for row in (dbt_backfill._execute(duplicates | join(' union all ')).rows if duplicates else []) %}
    {% do duplicate_keys.update({row['bf_partition']: row['duplicate_keys'] | int}) %}
  {% endfor %}
  {% set found = {} %}
  {# the members' columns are typed alike: the row expressions are written once, over their union #}
  {% set read = dbt_backfill._union_of_alike(parts,
      (first.material + first.key_columns + first.additive) | map(attribute='name') | list) %}
  {% set rows = dbt_backfill._fingerprint_rows_sql(read.from, first.material, first.key_columns, first.additive, none,
                                                   read.labels.bf_partition) %}
  {% set sql = dbt_backfill._fingerprint_totals_sql(rows, first.additive | length, true) %}
  {% for row in dbt_backfill._execute(sql).rows %}
    {% do found.update({row['bf_partition']: dbt_backfill._fingerprint_of_row(row, first.material, first.additive,
        duplicate_keys.get(row['bf_partition'], 0) if count_duplicate_keys else none)}) %}
  {% endfor %}
  {{ return(found) }}
{% endmacro %}
