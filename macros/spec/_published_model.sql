{# A model dbt-backfill reads the partitions of: {node, spec (its meta.backfill, read as a plan reads it), relation
   (where dbt publishes it), scope (its partition column, business key, additive and material columns: every column
   but exclude_columns)}. Fails, naming the model, where it declares no partition_by and business_key. Shared by the ledger (partition_ledger) and the stale scan (find_stale). #}
{% macro _published_model(model) %}
  {% set node = dbt_backfill._model_node(model) %}
  {% set meta = dbt_backfill._meta_backfill(node) %}
  {% if not meta or not meta.get('partition_by') or not meta.get('business_key') %}
    {% do dbt_backfill._fail(model ~ ' declares no meta.backfill with partition_by and business_key: it has no '
        ~ 'partitions dbt-backfill writes. Nothing was read.') %}
  {% endif %}
  {% set spec = dbt_backfill._backfill_spec(model, meta) %}
  {% set relation = dbt_backfill._target_relation({'database': node.database, 'schema': node.schema,
                                                   'identifier': node.alias or node.name}) %}
  {{ return({'node': node, 'spec': spec, 'relation': relation, 'scope': dbt_backfill._ledger_scope(relation, spec)}) }}
{% endmacro %}

{# The scope a read of the model's partitions fingerprints: its meta.backfill's partition column, business key and
   additive columns, every column of the table but exclude_columns. #}
{% macro _ledger_scope(target_relation, spec) %}
  {% set excluded = dbt_backfill._columns(target_relation, spec.exclude_columns, 'exclude_columns') | map(attribute='name') | list %}
  {% set material = dbt_backfill._column_names(target_relation) | reject('in', excluded) | list %}
  {{ return(dbt_backfill._backfill_scope(target_relation, spec.partition_by, spec.business_key, spec.additive, material)) }}
{% endmacro %}
