{#
  The published table a plan repairs, and the contract's columns checked against it: its relation, its columns
  (refused when it does not exist or has none), the columns exclude_columns and order_by name (each the target's;
  order_by's entries `<column> [asc|desc]`), and the backfill's scope over what remains (_backfill_scope), with
  the excluded columns' names (`excluded_names`).
  Returns [target relation, its column names, scope].
#}
{% macro _plan_target(target, partition_by, business_key, order_by, additive, exclude_columns) %}
  {% set target_relation = dbt_backfill._target_relation(target) %}
  {% set target_columns = dbt_backfill._column_names(target_relation) %}
  {% if not target_columns %}
    {% do dbt_backfill._fail(dbt_backfill._relation_name(target_relation) ~ ' does not exist or has no columns: a backfill '
        ~ 'repairs a published table; run the model first. Nothing was changed.') %}
  {% endif %}
  {% set excluded = [] %}
  {% for column in dbt_backfill._columns(target_relation, exclude_columns, 'exclude_columns') %}
    {% do excluded.append(column.name) %}
  {% endfor %}
  {% set material_names = target_columns | reject('in', excluded) | list %}
  {# order_by states which version of a key the model keeps: `<column> [asc|desc]`, each column the target's #}
  {% set order_names = [] %}
  {% for entry in order_by %}
    {% set words = entry.split() %}
    {% if not (words | length in [1, 2]) or (words | length == 2 and (words[1] | lower) not in ['asc', 'desc']) %}
      {% do dbt_backfill._fail('meta.backfill.order_by: ' ~ tojson(entry) ~ ' is not a column optionally followed by asc '
          ~ 'or desc (e.g. `updated_at desc`: the newest version of a key wins). Nothing was changed.') %}
    {% endif %}
    {% do order_names.append(words[0]) %}
  {% endfor %}
  {% do dbt_backfill._columns(target_relation, order_names, 'order_by') %}
  {% set scope = dbt_backfill._backfill_scope(target_relation, partition_by, business_key, additive, material_names) %}
  {# the plan compares them apart: counted, sampled and said to be written unchecked (change_summary) #}
  {% do scope.update({'excluded_names': excluded}) %}
  {{ return([target_relation, target_columns, scope]) }}
{% endmacro %}
