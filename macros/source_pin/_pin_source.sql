{#
  Pin the source before anything is built: two reads of every relation the model reads (_fingerprint_sources),
  refused (`source_moved`) if they differ: a column that changes on every read cannot be backfilled reproducibly.
  Returns [first read, second read]; the plan records both, and reads the source a third time after the builds
  (_reread_source).
#}
{% macro _pin_source(sources) %}
  {% set first_read = dbt_backfill._fingerprint_sources(sources) %}
  {% set second_read = dbt_backfill._fingerprint_sources(sources) %}
  {% set moved = dbt_backfill._moved_sources(first_read, second_read) %}
  {% if moved %}
    {% set names = [] %}
    {% for m in moved %}{% do names.append(m.relation ~ ': ' ~ m.first ~ ', then ' ~ m.second) %}{% endfor %}
    {% do dbt_backfill._refuse('source_moved',
        'the source changed between two reads (' ~ names | join('; ') ~ '). A column that changes on every read '
        ~ '(clock_timestamp(), now(), random()) cannot be backfilled reproducibly. Nothing was built and the target is unchanged.',
        {'moved': moved, 'reads': [first_read, second_read]}) %}
  {% endif %}
  {{ return([first_read, second_read]) }}
{% endmacro %}
