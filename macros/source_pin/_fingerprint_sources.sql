{# One read of every relation the model reads: {relation name: source_state and its `columns`}, in its own
   transaction, so a now() or clock_timestamp() in a source differs between two reads. The columns (each name and
   type, in the relation's order) are part of the state: a column dropped, added or renamed changes what a build
   gives, and on PostgreSQL it leaves every row version as it was. #}
{% macro _fingerprint_sources(sources) %}
  {# a windowed input (its ref carries `event_time` and `windows`) is read within the windows its builds read #}
  {% set read = {} %}
  {% for source in sources %}
    {% set relation = dbt_backfill._relation(source) %}
    {# someone else's relation: its columns are part of what each read compares, so each read reads them #}
    {% do dbt_backfill._forget_columns(relation) %}
    {% set columns = [] %}
    {% for name in dbt_backfill._column_names(relation) %}{% do columns.append(name) %}{% endfor %}
    {% if not columns %}
      {{ exceptions.raise_compiler_error("dbt_backfill: the model reads " ~ relation ~ ", which does not exist or has no columns. Nothing was built and the target is unchanged.") }}
    {% endif %}
    {% set declared = [] %}
    {% for column in dbt_backfill._relation_columns(relation) %}{% do declared.append(column.name ~ ' ' ~ column.data_type) %}{% endfor %}
    {% set where = dbt_backfill._window_predicate(source.event_time, source.windows, source.get('event_time_type')) if source.get('windows') else none %}
    {% set state = dbt_backfill._merged(dbt_backfill.source_state(relation, dbt_backfill._columns(relation, columns, 'source column'), where,
                                                                  source.get('content', false)),
                                        {'columns': declared | join(', ')}) %}
    {% do read.update({dbt_backfill._relation_name(relation): state}) %}
  {% endfor %}
  {% do dbt_backfill._commit() %}
  {{ return(read) }}
{% endmacro %}
