{# The source read a third time, after the builds: it must read as the first read did, else the builds cannot be tied
   to one snapshot (`source_moved_during_build`). Returns that read (the packet's source.after_build). #}
{% macro _reread_source(sources, first_read) %}
  {% set after_read = dbt_backfill._fingerprint_sources(sources) %}
  {% set moved_during_build = dbt_backfill._moved_sources(first_read, after_read) %}
  {% if moved_during_build %}
    {% do dbt_backfill._refuse('source_moved_during_build',
        'the source changed while the stages were built (' ~ moved_during_build | map(attribute='relation') | join(', ')
        ~ '): the builds cannot be tied to one snapshot. Re-plan when the source is quiet. The target is unchanged.',
        {'moved': moved_during_build}) %}
  {% endif %}
  {{ return(after_read) }}
{% endmacro %}
