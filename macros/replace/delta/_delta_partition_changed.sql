{# Whether a Delta table's partition differs between versions `before` and `after`: each data file it reads, with
   the rows it reads of that file (their number and the sum of their positions, `_metadata.row_index`), compared. A
   data file is never rewritten in place, so a new file is a change (another writer's rewrite counts, even with the
   same rows); but a deletion vector (`delta.enableDeletionVectors`, on by default on Databricks) deletes rows of a
   file without changing its path, and only the rows read from it show that. One query, over one partition. #}
{% macro _delta_partition_changed(relation, partition_predicate, before, after) %}
  {% if before == after %}{{ return(false) }}{% endif %}
  {% set files = [] %}
  {% for version in (before, after) %}
    {% do files.append('(select _metadata.file_path as f, count(*) as n, sum(_metadata.row_index) as s from ' ~ relation
                       ~ ' version as of ' ~ version ~ ' where ' ~ partition_predicate ~ ' group by _metadata.file_path)') %}
  {% endfor %}
  {% set differing = dbt_backfill._execute('select count(*) from ' ~ files[0] ~ ' a full outer join ' ~ files[1]
      ~ ' b on a.f = b.f and a.n = b.n and a.s = b.s where a.f is null or b.f is null').rows[0][0] %}
  {{ return(differing | int > 0) }}
{% endmacro %}
