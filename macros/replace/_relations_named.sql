{#
  adapter.get_relation of each of `named` (relations as named: database, schema, identifier), in their order, found
  in one read of the catalog (_source_facts, which apply reads of its stages anyway) instead of one search each.
  dbt's get_relation searches its list of the schema's relations name by name, so a command asking after every
  stage of a run paid the schema's size for each (issue 57: a plan of 100 partitions that found nothing to change
  spent 16 s dropping its stages in a schema of 2,400 relations). A name in lower case the catalog does not hold
  is none; a table or a view is that relation, as the catalog names it; any other kind, and a name with a capital
  the catalog does not hold exactly (a project that does not quote identifiers makes its relations in lower case,
  which get_relation finds, and says so when a name matches only in another case), is asked of get_relation.
  Spark asks get_relation of each (its relations carry what the listing read of their format).
#}
{% macro _relations_named(named, target_relation) %}
  {{ return(adapter.dispatch('_relations_named', 'dbt_backfill')(named, target_relation)) }}
{% endmacro %}

{% macro default___relations_named(named, target_relation) %}
  {% set found = [] %}
  {% for facts in dbt_backfill._source_facts(named, target_relation) %}
    {% set relation = named[loop.index0] %}
    {% if facts.kind is none and relation.schema == relation.schema | lower and relation.identifier == relation.identifier | lower %}
      {% do found.append(none) %}
    {% elif facts.kind in ('table', 'view') %}
      {% do found.append(api.Relation.create(database=relation.database, schema=relation.schema,
                                             identifier=relation.identifier, type=facts.kind)) %}
    {% else %}
      {% do found.append(adapter.get_relation(database=relation.database, schema=relation.schema,
                                              identifier=relation.identifier)) %}
    {% endif %}
  {% endfor %}
  {{ return(found) }}
{% endmacro %}

{% macro spark___relations_named(named, target_relation) %}
  {% set found = [] %}
  {% for relation in named %}
    {% do found.append(adapter.get_relation(database=relation.database, schema=relation.schema,
                                            identifier=relation.identifier)) %}
  {% endfor %}
  {{ return(found) }}
{% endmacro %}
