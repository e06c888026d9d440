{# A run's standing on a partition: its last write there that says something — an apply that found the run's own
   replacement already in place (an adoption right after it) adds nothing to that replacement. None without any. #}
{% macro _standing(writes, run_id) %}
  {% set standing = [] %}
  {% for write in writes if write.run_id == run_id
        and not (write.event == 'adopted' and standing and standing[-1].event == 'replaced') %}
    {% do standing.append(write) %}
  {% endfor %}
  {{ return(standing[-1] if standing else none) }}
{% endmacro %}
