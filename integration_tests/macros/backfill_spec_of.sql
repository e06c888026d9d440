{# The package's one reading of meta.backfill (_backfill_spec), on any `meta` a test gives, with `overrides` as the
   CLI lays them on: tests/test_two_paths.py reads what it returns, or the refusal. #}
{% macro backfill_spec_of(meta, overrides={}) %}
  {% do dbt_backfill._emit_result('spec', dbt_backfill._backfill_spec('fct_trips', meta, overrides)) %}
{% endmacro %}
