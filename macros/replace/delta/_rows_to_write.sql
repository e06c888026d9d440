{#
  Delta: the rows a replacement writes, pinned to one version of a table no one else writes. Apply: the stage's
  rows of the partition, copied into `<stage>_w` (a Delta table of its own, kept for clean); rollback: the backup
  (its clone), as it is. Records in the unit's state the copy's version (`pinned`: what the caller fingerprints,
  and what the write reads, `... version as of pinned`) and, for rollback, the target's version (`read`: the one
  no other commit may change the partition after; apply's is the backup's, delta__backup_partition). Rollback's is
  the version the write session began at (_target_layout), before it read the partition: a commit between that read
  and this write is then a conflict (delta__replace_partition), not a change the restore would overwrite unseen.
#}
{% macro delta___rows_to_write(source_relation, partition_predicate, column_names, target_relation, unit, source_as) %}
  {% set states = unit.layout.setdefault('delta', {}) %}
  {% if source_as == 'backup' %}
    {% set began = unit.layout.get('delta_version') %}
    {% do states.update({unit.value | string: {'read': dbt_backfill._delta_version(target_relation) if began is none else began}}) %}
  {% elif (unit.value | string) not in states %}
    {% do states.update({unit.value | string: {'read': dbt_backfill._delta_version(target_relation)}}) %}
  {% endif %}
  {% set state = states[unit.value | string] %}
  {% if source_as == 'backup' %}
    {% do state.update({'pinned': dbt_backfill._delta_version(source_relation)}) %}
    {{ return({'relation': source_relation, 'copied': false, 'keep': true}) }}
  {% endif %}
  {% set copy = api.Relation.create(database=source_relation.database, schema=source_relation.schema,
                                    identifier=source_relation.identifier ~ '_w', type='table') %}
  {% set columns = [] %}
  {% for name in column_names %}{% do columns.append(adapter.quote(name)) %}{% endfor %}
  {% do dbt_backfill._forget_columns(copy) %}
  {% do dbt_backfill._execute('create or replace table ' ~ copy ~ ' using delta as select ' ~ columns | join(', ')
      ~ ' from ' ~ source_relation ~ ' where ' ~ partition_predicate, fetch=false) %}
  {% do state.update({'pinned': dbt_backfill._delta_version(copy)}) %}
  {{ return({'relation': copy, 'copied': true, 'keep': true}) }}
{% endmacro %}
