{# Where a long loop over partitions is: the step, the partition it starts now, how many of the step's partitions are
   done and of how many. The CLI shows it on a terminal (which partition, how many left, the time left); pure dbt
   already logs each step (_step). #}
{% macro _progress(step, partition, done, of) %}
  {% do dbt_backfill._emit_result('progress', {'step': step, 'partition': partition | string, 'done': done, 'of': of}) %}
{% endmacro %}
