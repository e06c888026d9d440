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
  A model calls macros unqualified, and dbt resolves them in the model's own package first: for the render, the
  context's names are the ones dbt's compiler gives a node of that package (_enter_package_namespace), so a vendor
  package's model, and its macros calling each other, render as `dbt compile` renders them.
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
  {% set namespace_saved = dbt_backfill._enter_package_namespace(context, node.package_name) %}
  {% do context.update({'this': api.Relation.create(database=node.database, schema=node.schema, identifier=node.alias or node.name),
                        'model': as_full_build, 'ref': dbt_backfill._ref_in_render,
                        'bf_dbt_ref': saved.get('ref'), 'bf_ephemerals': ephemerals}) %}
  {% set sql = render(node.raw_code) %}
  {% for name in ['this', 'model', 'ref'] %}
    {% if name in saved %}{% do context.update({name: saved[name]}) %}{% else %}{% do context.pop(name, none) %}{% endif %}
  {% endfor %}
  {% do context.pop('bf_dbt_ref', none) %}{% do context.pop('bf_ephemerals', none) %}
  {% do dbt_backfill._leave_package_namespace(context, namespace_saved) %}
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
      {% set context = dbt_backfill._ref_in_render.context %}
      {% set namespace_saved = dbt_backfill._enter_package_namespace(context, matches[0].package_name) %}
      {% set upstream_sql = render(matches[0].raw_code) %}
      {% do dbt_backfill._leave_package_namespace(context, namespace_saved) %}
      {% do bf_ephemerals.append({'name': cte, 'sql': upstream_sql}) %}
    {% endif %}
    {{ return(cte) }}
  {% endif %}
  {{ return(bf_dbt_ref(*varargs, **kwargs)) }}
{% endmacro %}

{#
  The names a model of `package` sees as dbt compiles it (dbt/context/macros.py, MacroNamespace): a macro of the
  model's own package first, then the root project's, then the packages by name, then dbt's internal macros.
  run-operation builds its context for the operation's package (dbt_backfill's macros first), so for the render the
  names of those two packages are set as dbt's order gives them, or removed where dbt's compiler has none: the model's
  unqualified calls, and its package's macros calling each other unqualified (each call reads the context as it is
  then), resolve as they do in `dbt compile`. adapter.dispatch with a package's name reads dbt's own namespace and
  needs nothing. Returns what it replaced, for _leave_package_namespace.
#}
{% macro _enter_package_namespace(context, package) %}
  {% set saved = {} %}
  {% if package == 'dbt_backfill' %}{{ return(saved) }}{% endif %}
  {% set own = context.get(package) if context.get(package) is mapping else {} %}
  {% set root = context.get(project_name) if context.get(project_name) is mapping else {} %}
  {% set internal = context.get('dbt') if context.get('dbt') is mapping else {} %}
  {% set operation = context.get('dbt_backfill') if context.get('dbt_backfill') is mapping else {} %}
  {% for name in (own.keys() | list + operation.keys() | list) | unique %}
    {% do saved.update({name: {'present': name in context, 'value': context.get(name)}}) %}
    {% if name in own %}{% do context.update({name: own[name]}) %}
    {% elif name in root %}{% do context.update({name: root[name]}) %}
    {% elif name in internal %}{% do context.update({name: internal[name]}) %}
    {% else %}{% do context.pop(name, none) %}
    {% endif %}
  {% endfor %}
  {{ return(saved) }}
{% endmacro %}

{# Puts back what _enter_package_namespace replaced. #}
{% macro _leave_package_namespace(context, saved) %}
  {% for name, was in saved.items() %}
    {% if was.present %}{% do context.update({name: was.value}) %}{% else %}{% do context.pop(name, none) %}{% endif %}
  {% endfor %}
{% endmacro %}
