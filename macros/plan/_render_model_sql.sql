{#
  The model's SQL as a full (non-incremental) build gives it, rendered inside run-operation — the pure-dbt path,
  where there is no `dbt compile` to ask. run-operation renders with no `this` and no `model`, so is_incremental()
  (in the model or in any macro it calls) cannot evaluate. For the length of the render, the operation's
  context gets `this` = the model's relation and `model` = the node with materialized 'table', which makes
  is_incremental() false exactly as `--full-refresh` does; both are put back afterwards.
  run-operation's ref() also refuses an ephemeral model ("Operations can not ref() ephemeral nodes"): vendor
  packages are built of them. For the render, ref() of an ephemeral model gives `__dbt__cte__<name>`, as dbt's
  compiler names it, and that model's own SQL (rendered the same way, so ephemerals it reads come first) becomes a
  CTE of that name around the model's SQL; every other ref() is dbt's own.
  This relies on dbt's macros sharing the operation's context dict (true of dbt-core 1.8-1.11); the CLI path
  compiles with `dbt compile --full-refresh` instead and does not depend on it.
#}
{% macro _render_model_sql(node) %}
  {% set context = is_incremental.context %}
  {% set saved = {} %}
  {% for name in ['this', 'model', 'ref'] if name in context %}{% do saved.update({name: context[name]}) %}{% endfor %}
  {% set config = {} %}{% do config.update(node.config) %}{% do config.update({'materialized': 'table'}) %}
  {% set as_full_build = {} %}{% do as_full_build.update(node) %}{% do as_full_build.update({'config': config}) %}
  {% set ephemerals = [] %}
  {% do context.update({'this': api.Relation.create(database=node.database, schema=node.schema, identifier=node.alias or node.name),
                        'model': as_full_build, 'ref': dbt_backfill._ref_in_render,
                        'bf_dbt_ref': saved.get('ref'), 'bf_ephemerals': ephemerals}) %}
  {% set sql = render(node.raw_code) %}
  {% for name in ['this', 'model', 'ref'] %}
    {% if name in saved %}{% do context.update({name: saved[name]}) %}{% else %}{% do context.pop(name, none) %}{% endif %}
  {% endfor %}
  {% do context.pop('bf_dbt_ref', none) %}{% do context.pop('bf_ephemerals', none) %}
  {% if ephemerals %}
    {% set ctes = [] %}
    {% for e in ephemerals %}{% do ctes.append(e.name ~ ' as (\n' ~ e.sql ~ '\n)') %}{% endfor %}
    {% set sql = 'with ' ~ ctes | join(',\n') ~ '\nselect * from (\n' ~ sql ~ '\n) bf_model' %}
  {% endif %}
  {{ return(sql) }}
{% endmacro %}

{# ref() while _render_model_sql renders: an ephemeral model is its CTE's name, rendered once; anything else is
   dbt's own ref(), called as it was. #}
{% macro _ref_in_render() %}
  {% set name = varargs[-1] if varargs else kwargs.get('name') %}
  {% set matches = graph.nodes.values() | selectattr('resource_type', 'equalto', 'model') | selectattr('name', 'equalto', name) | list %}
  {% if varargs | length == 2 %}{% set matches = matches | selectattr('package_name', 'equalto', varargs[0]) | list %}{% endif %}
  {% if matches | length == 1 and matches[0].config.materialized == 'ephemeral' %}
    {% set cte = '__dbt__cte__' ~ name %}
    {% if cte not in bf_ephemerals | map(attribute='name') | list %}
      {% set upstream_sql = render(matches[0].raw_code) %}
      {% do bf_ephemerals.append({'name': cte, 'sql': upstream_sql}) %}
    {% endif %}
    {{ return(cte) }}
  {% endif %}
  {{ return(bf_dbt_ref(*varargs, **kwargs)) }}
{% endmacro %}
