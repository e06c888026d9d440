{#
  Before a stage or backup is read at all by apply or rollback — reading is enough to run someone else's code as
  the applier: a view's functions, a row-security policy's, a type's — refuse unless it is a base table (not a view,
  whose answer can also depend on who asks and when), no role but its owner may write it (_other_writers), and
  reading it runs no code its owner chose (_code_on_read).
#}
{% macro _check_source(source_relation, target_relation, source_as, partition_value, unchanged_clause) %}
  {# a stage is the plan's, and a new plan builds another; a backup is the apply's, and nothing else holds its rows #}
  {% set made, next = ('the table the plan built', ' Plan again.') if source_as == 'stage'
      else ('the table the apply made', ' It is not restored from: find out who replaced it before anyone does.') %}
  {% set kind = adapter.dispatch('_relation_kind', 'dbt_backfill')(source_relation) %}
  {% if kind != 'table' %}
    {% do dbt_backfill._refuse(source_as ~ '_not_a_table',
        'the ' ~ source_as ~ ' of partition ' ~ partition_value ~ ', ' ~ dbt_backfill._relation_name(source_relation) ~ ', is '
        ~ (('a ' ~ kind) if kind else 'gone') ~ ', not ' ~ made ~ ': someone replaced it. '
        ~ 'Nothing of this partition was written' ~ unchanged_clause ~ next,
        {'partition': partition_value, 'relation': dbt_backfill._relation_ref(source_relation)}) %}
  {% endif %}
  {% set other_writers = dbt_backfill._other_writers(source_relation) %}
  {% if other_writers %}
    {% do dbt_backfill._refuse(source_as ~ '_writable_by_others',
        'the ' ~ source_as ~ ' of partition ' ~ partition_value ~ ', ' ~ dbt_backfill._relation_name(source_relation) ~ ', can be '
        ~ 'written by ' ~ other_writers | join(', ') ~ ', not only by its owner: what was approved is only as safe as who can '
        ~ 'write it. Revoke their INSERT, UPDATE, DELETE and TRUNCATE on it (and the default privileges of the stage '
        ~ 'schema that granted them), or plan again. Nothing of this partition was written' ~ unchanged_clause,
        {'partition': partition_value, 'writers': other_writers}) %}
  {% endif %}
  {% set code = adapter.dispatch('_code_on_read', 'dbt_backfill')(source_relation, target_relation) %}
  {% if code %}
    {% do dbt_backfill._refuse(source_as ~ '_runs_code_on_read',
        'the ' ~ source_as ~ ' of partition ' ~ partition_value ~ ', ' ~ dbt_backfill._relation_name(source_relation) ~ ', has '
        ~ code | join(', ') ~ ': reading it would run code its owner chose, with the applier\'s privileges. It was not '
        ~ 'read. Nothing of this partition was written' ~ unchanged_clause ~ next,
        {'partition': partition_value, 'code': code}) %}
  {% endif %}
{% endmacro %}
