{#
  Stages hold their rows as the published table will hold them, typed as its columns are.

  A model's SQL may type a column otherwise than the table dbt (or a contract, or a migration) made: text where the
  table has varchar(20), numeric where it has numeric(10,2), double where it has real. Writing casts each value to
  the table's type, and that cast can change it: 1005.4 becomes 1005, a double key becomes another real, '1005 '
  becomes a char(6). Every check of the plan (the fingerprint the approver signs, the change summary, the keys in
  two partitions) must see the values the write will produce, so a stage whose types differ within a family is
  rebuilt with each such column cast to the table's type (_as_target_types). Types of different families (text
  for an integer, timestamptz for a timestamp, one enum for another) are a schema change: refused.
#}

{#
  Compare the first stage's columns with the target's, by the types each relation declares. Refuses columns
  whose type family differs (or, outside the known families, whose declared type differs); returns
  {column name: the target's declared type} for the columns to cast (same family, declared otherwise), empty when
  the stage is typed as the target.
#}
{% macro _stage_types_against_target(stage_relation, target_relation, names) %}
  {% set stage_types = dbt_backfill._declared_types(stage_relation) %}
  {% set target_types = dbt_backfill._declared_types(target_relation) %}
  {% set retyped = [] %}
  {% set recast = {} %}
  {% for name in names %}
    {% set model_type = stage_types[name | lower] %}
    {% set target_type = target_types[name | lower] %}
    {% set family = dbt_backfill._type_family(model_type) %}
    {% if family != dbt_backfill._type_family(target_type)
          or (family in ('other', 'nested') and (model_type | lower) != (target_type | lower)) %}
      {% do retyped.append({'column': name, 'model_type': model_type, 'target_type': target_type}) %}
    {% elif (model_type | lower) != (target_type | lower) %}
      {% do recast.update({name: target_type}) %}
    {% endif %}
  {% endfor %}
  {% if retyped %}
    {% set described = [] %}
    {% for r in retyped %}{% do described.append(r.column ~ ' as ' ~ r.model_type ~ ' (the target: ' ~ r.target_type ~ ')') %}{% endfor %}
    {% do dbt_backfill._refuse('column_types_differ',
        'the model now produces ' ~ described | join(', ') ~ '. A backfill replaces rows, not the schema: cast the '
        ~ 'column in the model to the type the target has, or migrate the table first. The target is unchanged.',
        {'columns': retyped}) %}
  {% endif %}
  {{ return(recast) }}
{% endmacro %}
