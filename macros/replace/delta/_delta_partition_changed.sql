{# Whether a Delta table's partition differs between versions `before` and `after`: its data files compared (a
   Delta data file is never rewritten in place, so the same files are the same rows; another writer's commit that
   rewrote the partition, even with the same rows, counts as a change). One query. #}
{% macro _delta_partition_changed(relation, partition_predicate, before, after) %}
  {% if before == after %}{{ return(false) }}{% endif %}
  {% set files = [] %}
  {% for version in (before, after) %}
    {% do files.append('(select distinct _metadata.file_path as f from ' ~ relation ~ ' version as of ' ~ version
                       ~ ' where ' ~ partition_predicate ~ ')') %}
  {% endfor %}
  {% set differing = dbt_backfill._execute('select count(*) from ' ~ files[0] ~ ' a full outer join ' ~ files[1]
      ~ ' b on a.f = b.f where a.f is null or b.f is null').rows[0][0] %}
  {{ return(differing | int > 0) }}
{% endmacro %}
