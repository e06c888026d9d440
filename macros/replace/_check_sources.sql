{#
  Before a stage or backup is read at all by apply or rollback — reading is enough to run someone else's code as
  the applier: a view's functions, a row-security policy's, a type's — refuse unless it is a base table (not a view,
  whose answer can also depend on who asks and when), no role but its owner may write it, and reading it runs no
  code its owner chose (_source_facts). It checks many (apply's approved stages, before any is read)
  from one reading of the catalog, each in turn: the first that fails is refused.
#}
{% macro _check_sources(source_relations, target_relation, source_as, partition_values, unchanged_clause) %}
  {# a stage is the plan's, and a new plan builds another; a backup is the apply's, and nothing else holds its rows #}
  {% set made, next = ('the table the plan built', ' Plan again.') if source_as == 'stage'
      else ('the table the apply made', ' It is not restored from: find out who replaced it before anyone does.') %}
  {% for facts in dbt_backfill._source_facts(source_relations, target_relation) %}
    {% set source_relation, partition_value = source_relations[loop.index0], partition_values[loop.index0] %}
    {% set named = ('the ' ~ source_as ~ ' of partition ' ~ partition_value ~ ', ' ~ dbt_backfill._relation_name(source_relation))
        if facts.kind != 'table' or facts.writers or facts.code else none %}
    {% if facts.kind != 'table' %}
      {% do dbt_backfill._refuse(source_as ~ '_not_a_table',
          named ~ ', is ' ~ (('a ' ~ facts.kind) if facts.kind else 'gone') ~ ', not ' ~ made ~ ': someone replaced it. '
          ~ 'Nothing of this partition was written' ~ unchanged_clause ~ next,
          {'partition': partition_value, 'relation': dbt_backfill._relation_ref(source_relation)}) %}
    {% endif %}
    {% if facts.writers %}
      {% do dbt_backfill._refuse(source_as ~ '_writable_by_others',
          named ~ ', can be written by ' ~ facts.writers | join(', ') ~ ', not only by its owner: what was approved is only as '
          ~ 'safe as who can write it. Revoke their INSERT, UPDATE, DELETE and TRUNCATE on it (and the default privileges '
          ~ 'of the stage schema that granted them), or plan again. Nothing of this partition was written' ~ unchanged_clause,
          {'partition': partition_value, 'writers': facts.writers}) %}
    {% endif %}
    {% if facts.code %}
      {% do dbt_backfill._refuse(source_as ~ '_runs_code_on_read',
          named ~ ', has ' ~ facts.code | join(', ') ~ ': reading it would run code its owner chose, with the applier\'s '
          ~ 'privileges. It was not read. Nothing of this partition was written' ~ unchanged_clause ~ next,
          {'partition': partition_value, 'code': facts.code}) %}
    {% endif %}
  {% endfor %}
{% endmacro %}
