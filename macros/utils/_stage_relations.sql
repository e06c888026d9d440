{#
  The run's relations for partition number `index`: build a, build b and the backup of the target's old rows,
  all in the stage schema; `a_w`, the copy apply writes from build a (dropped in its transaction, except on Spark,
  where it names the directory the target's partition was pointed at: _rows_to_write); and `whole`, used at index 0 only: the one build of every named partition from the
  whole inputs that a windowed plan proves its windows against (dropped by the plan). Names carry the run id and the partition's position, never its value, so any
  value is safe; the model name is cut so the identifier stays within PostgreSQL's 63 bytes, and any character of
  it but ASCII letters, digits and underscores becomes `_` first: a multi-byte character would make 24 characters
  more than 24 bytes, and PostgreSQL would cut `_a`, `_b` and `_backup` to one name.
#}
{% macro _stage_relations(target_relation, stage_schema, run_id, index) %}
  {% set stem = modules.re.sub('[^A-Za-z0-9_]', '_', target_relation.identifier)[:24] ~ '__' ~ run_id ~ '__p' ~ index %}
  {% set relations = {} %}
  {% for suffix in ['a', 'b', 'backup', 'whole', 'a_w'] %}
    {% do relations.update({suffix: api.Relation.create(database=target_relation.database, schema=stage_schema,
                                                          identifier=stem ~ '_' ~ suffix, type='table')}) %}
  {% endfor %}
  {{ return(relations) }}
{% endmacro %}
