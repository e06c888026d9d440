{# The candidates that differ from the model's build, in order, each with what a replacement would change by
   business key (_change_summaries against the session table, typed by the target): [{value, kind: differs | missing
   (the target holds no row of it), target, model ({row_count, sha256}), added, removed, changed, sample,
   added_keys, removed_keys, why (the candidate's reasons)}]. #}
{% macro _stale_details(relation, scope, compared, candidates) %}
  {% set differing = [] %}
  {% for value, sides in compared.by_value.items()
        if sides.target.sha256 != sides.model.sha256 or sides.target.row_count != sides.model.row_count %}
    {% do differing.append({'target': relation, 'stage': compared.rows, 'value': value}) %}
  {% endfor %}
  {# every differing partition summarised in two statements, not two each (_change_summaries) #}
  {% set summaries = dbt_backfill._change_summaries(differing, scope, 3, relation) %}
  {% set stale = [] %}
  {% for pair in differing %}
    {% set value, sides, summary = pair.value, compared.by_value[pair.value], summaries[loop.index0] %}
    {% do stale.append({'value': value, 'kind': 'missing' if sides.target.row_count == 0 else 'differs',
        'target': sides.target, 'model': sides.model, 'added': summary.added, 'removed': summary.removed,
        'changed': summary.changed, 'sample': summary.sample, 'added_keys': summary.added_keys,
        'removed_keys': summary.removed_keys, 'why': candidates[value]}) %}
  {% endfor %}
  {% do dbt_backfill._commit() %}
  {{ return(stale) }}
{% endmacro %}
