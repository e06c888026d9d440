{# Spark: where dbt-backfill writes `relation`'s directory: under the target's own location, so the data stays
   with the table it belongs to, in `_backfill/` (Spark's file listing and partition discovery skip names that
   start with `_`). #}
{% macro _backfill_directory(unit, relation) %}
  {% if not unit.root %}
    {% do dbt_backfill._fail('the target\'s location is unknown: a Spark write needs it. The target is unchanged.') %}
  {% endif %}
  {{ return(unit.root.rstrip('/') ~ '/_backfill/' ~ relation.identifier) }}
{% endmacro %}
