{#
  Blocks `dbt run/build --full-refresh` (or a `full_refresh: true` config) on a model whose
  meta.backfill.protected is true. Since dbt 1.8 a package cannot override materializations or
  should_full_refresh for the user's models, so the guard is a pre-hook the project opts into once:

      models:
        +pre-hook: "{{ dbt_backfill.full_refresh_guard() }}"

  Pre-hooks run before the materialization creates or drops anything, so the table is left as it was.
  Unprotected models pass through untouched. Not dispatched: it runs no SQL.
#}
{% macro full_refresh_guard() %}
  {% if execute and model is defined and model is not none %}
    {% set meta = config.get('meta') or {} %}
    {% set backfill = meta.get('backfill') or (model.get('meta') or {}).get('backfill') or {} %}
    {% if backfill.get('protected') and should_full_refresh() %}
      {{ exceptions.raise_compiler_error(
          "dbt_backfill: " ~ model.name ~ " is protected (meta.backfill.protected: true) and a full refresh would "
          ~ "rebuild every published partition. The table was left as it was. To repair some partitions, run "
          ~ "`dbt-backfill plan " ~ model.name ~ " --partitions <p1,p2,...>`, then approve and apply the packet.") }}
    {% endif %}
  {% endif %}
  {{ return('') }}
{% endmacro %}
