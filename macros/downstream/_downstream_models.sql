{#
  The models downstream of the `root` graph node (from dbt's graph), in topological order (parents first, ties by name),
  each with how the backfill's partitions map onto it:
    view / ephemeral      reads the target when queried: nothing to rebuild;
    same_partitions       a table with meta.backfill partitioned by the same column: the partitions its parents
                          change are rebuilt, widened by its `reach` (apply --cascade; partitions_in_reach);
    unknown               a table without meta.backfill, or partitioned by another column: a person must decide
                          its scope (a gate in the plan).
  `reach` ({before, after, declared_by}: partitions of the column before and after a changed parent partition that
  its rows depend on) comes from its meta.backfill.depends_on_window, else is {0, 0} undeclared; a window needs an
  ordered column (a date or an integer), so a declared window on a text column makes the mapping unknown.
  Returns [{model, unique_id, order, materialized, mapping, partition_by, parents, reach, reason}]. The CLI adds each one's
  `binding` (a run-operation sees no compiled SQL): the SHA-256s of its compiled SQL, its file and its
  meta.backfill, which bind the cascade's approval to what the root's approver saw listed.
#}
{% macro _downstream_models(root, partition_by, partition_family='date') %}
  {% set models = graph.nodes.values() | selectattr('resource_type', 'equalto', 'model') | list %}
  {% set children = {} %}
  {% for node in models %}
    {% for parent in node.depends_on.nodes %}
      {% do children.setdefault(parent, []).append(node.unique_id) %}
    {% endfor %}
  {% endfor %}
  {% set found = {root.unique_id: true} %}
  {% set frontier = [root.unique_id] %}
  {% for _ in range(models | length) %}
    {% set next_frontier = [] %}
    {% for unique_id in frontier %}
      {% for child in children.get(unique_id, []) if child not in found %}
        {% do found.update({child: true}) %}
        {% do next_frontier.append(child) %}
      {% endfor %}
    {% endfor %}
    {% do frontier.clear() %}{% do frontier.extend(next_frontier) %}
  {% endfor %}

  {# Kahn's algorithm over the downstream set: a model comes after every parent of it that is in the set #}
  {% set ordered = [] %}
  {% set placed = [root.unique_id] %}
  {% for _ in range(found | length) %}
    {% for unique_id in found.keys() | sort if unique_id not in placed %}
      {% set parents = graph.nodes[unique_id].depends_on.nodes | select('in', found.keys() | list) | list %}
      {% if parents | reject('in', placed) | list | length == 0 %}
        {% do placed.append(unique_id) %}
        {% do ordered.append(unique_id) %}
      {% endif %}
    {% endfor %}
  {% endfor %}

  {% set downstream = [] %}
  {% for unique_id in ordered %}
    {% set node = graph.nodes[unique_id] %}
    {% set materialized = node.config.materialized %}
    {% set spec = dbt_backfill._meta_backfill(node) or {} %}
    {% set reach = dbt_backfill._declared_reach(spec) %}
    {% set reason = none %}
    {% if materialized in ('view', 'ephemeral') %}
      {% set mapping = materialized %}
    {% elif spec and (spec.get('partition_by') or '') | lower == partition_by | lower %}
      {% set mapping = 'same_partitions' %}
      {% if reach is string %}
        {% set mapping, reason = 'unknown', reach %}
      {% elif reach.before or reach.after %}
        {# a window counts the model's own partitions: its own column's type decides, not the root's #}
        {% set own = adapter.get_relation(database=node.database, schema=node.schema, identifier=node.alias or node.name) %}
        {% set own_family = dbt_backfill._type_family(dbt_backfill._columns(own, [spec.partition_by], 'partition_by')[0].data_type)
            if own is not none else none %}
        {% if own_family not in ('date', 'integer') %}
          {% set mapping, reason = 'unknown', 'a window of ' ~ reach.declared_by ~ ' needs an ordered partition column '
              ~ '(a date or an integer); its ' ~ spec.partition_by ~ ' is ' ~ (own_family ~ ' (' ~ partition_family
              ~ ' in the root)' if own_family else 'not readable: the table does not exist') %}
        {% endif %}
      {% endif %}
    {% else %}
      {% set mapping, reason = 'unknown', ('it is partitioned by ' ~ spec.partition_by ~ ' (meta.backfill), not by '
          ~ partition_by if spec.get('partition_by') else 'it declares no meta.backfill partition_by') %}
    {% endif %}
    {% set in_set_parents = [] %}
    {% for parent in node.depends_on.nodes if parent in found or parent == root.unique_id %}
      {% do in_set_parents.append(graph.nodes[parent].name) %}
    {% endfor %}
    {% do downstream.append({'model': node.name, 'unique_id': unique_id, 'order': loop.index,
        'materialized': materialized, 'mapping': mapping, 'partition_by': spec.get('partition_by'),
        'parents': in_set_parents, 'reach': reach if reach is mapping else none, 'reason': reason}) %}
  {% endfor %}
  {{ return(downstream) }}
{% endmacro %}

{# How far a change of a parent partition reaches into this model's partitions: {before, after, declared_by}, or the
   reason a declaration cannot be read. dbt's microbatch `lookback` is not read as a reach: it says how many batches
   a run rebuilds behind the newest (late data), not which of a parent's batches one batch reads. #}
{% macro _declared_reach(spec) %}
  {% set window = spec.get('depends_on_window') %}
  {% if window %}
    {% if window is not mapping or window.keys() | reject('in', ['before', 'after']) | list
          or window.values() | reject('integer') | list or window.values() | select('lt', 0) | list %}
      {{ return('its meta.backfill.depends_on_window is not {before: N, after: N} with whole numbers >= 0') }}
    {% endif %}
    {{ return({'before': window.get('before', 0), 'after': window.get('after', 0),
               'declared_by': 'meta.backfill.depends_on_window'}) }}
  {% endif %}
  {{ return({'before': 0, 'after': 0, 'declared_by': none}) }}
{% endmacro %}
