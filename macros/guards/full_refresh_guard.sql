{#
  Blocks `dbt run/build --full-refresh` (or a `full_refresh: true` config) on a model whose
  meta.backfill.protected is true. Since dbt 1.8 a package cannot override materializations or
  should_full_refresh for the user's models, so the guard is a pre-hook the project opts into once:

      models:
        +pre-hook: "{{ dbt_backfill.full_refresh_guard() }}"

  Pre-hooks run before the materialization creates or drops anything, so the table is left as it was.
  Unprotected models pass through untouched. A full refresh goes through:
    - where the table does not exist yet (CI, a fresh dev schema): there is nothing published to lose;
    - when the invocation says why, with --vars '{dbt_backfill_allow_full_refresh: "<reason>"}' on its command
      line (not from dbt_project.yml, where it would stay for every later run): the reason, and who ran it, are
      recorded in the model's audit trail (event full_refresh), in the model's own transaction where the engine
      has one, so the row stays only if the rebuild committed.
  Not dispatched.
#}
{% macro full_refresh_guard() %}
  {% if execute and model is defined and model is not none %}
    {% set meta = config.get('meta') or {} %}
    {% set backfill = meta.get('backfill') or (model.get('meta') or {}).get('backfill') or {} %}
    {% if backfill.get('protected') and should_full_refresh() %}
      {% set published = adapter.get_relation(database=this.database, schema=this.schema, identifier=this.identifier) %}
      {# only from this invocation's --vars: a reason left in dbt_project.yml would let every later full refresh through #}
      {% set given = invocation_args_dict.get('vars') or {} %}
      {% if given is string %}{% set given = fromyaml(given) or {} %}{% endif %}
      {% set reason = given.get('dbt_backfill_allow_full_refresh') %}
      {% if published is none %}
        {{ return('') }}
      {% elif reason is string and reason | trim %}
        {% do dbt_backfill._ensure_audit_table(this) %}
        {% do dbt_backfill.record_audit_event(this, 'full_refresh', invocation_id,
            {'model': model.name, 'outcome': 'allowed', 'detail': reason | trim,
             'approved_by': dbt_backfill._invoking_user('dbt run')}) %}
        {{ return('') }}
      {% endif %}
      {{ exceptions.raise_compiler_error(
          "dbt_backfill: " ~ model.name ~ " is protected (meta.backfill.protected: true) and a full refresh would "
          ~ "rebuild every published partition. The table was left as it was. To repair some partitions, run "
          ~ "`dbt-backfill plan " ~ model.name ~ " --partitions <p1,p2,...>`, then approve and apply the packet. To "
          ~ "rebuild it whole on purpose, say why: --vars '{dbt_backfill_allow_full_refresh: \"<reason>\"}' (recorded "
          ~ "in its audit trail)"
          ~ (" — the var must be a non-empty text, got " ~ tojson(reason | string) if reason is not none else "") ~ ".") }}
    {% endif %}
  {% endif %}
  {{ return('') }}
{% endmacro %}
