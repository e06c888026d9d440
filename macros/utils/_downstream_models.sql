{#
  The models downstream of the `root` graph node (from dbt's graph), in topological order (parents first, ties by name),
  each with how the backfill's partitions map onto it:
    view / ephemeral      reads the target when queried: nothing to rebuild;
    same_partitions       a table with meta.backfill partitioned by the same column: the same partition values
                          are rebuilt (dbt-backfill plan --cascade / apply --cascade);
    unknown               a table without meta.backfill, or partitioned by another column: a person must decide
                          its scope (a gate in the plan).
  Returns [{model, unique_id, order, materialized, mapping, partition_by, parents}]. The CLI adds each one's
  `binding` (a run-operation sees no compiled SQL): the SHA-256s of its compiled SQL, its file and its
  meta.backfill, which bind the cascade's approval to what the root's approver saw listed.
#}
{% macro _downstream_models(root, partition_by) %}
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
    {% set spec = (node.config.meta or {}).get('backfill') or {} %}
    {% if materialized in ('view', 'ephemeral') %}
      {% set mapping = materialized %}
    {% elif spec and (spec.get('partition_by') or '') | lower == partition_by | lower %}
      {% set mapping = 'same_partitions' %}
    {% else %}
      {% set mapping = 'unknown' %}
    {% endif %}
    {% set in_set_parents = [] %}
    {% for parent in node.depends_on.nodes if parent in found or parent == root.unique_id %}
      {% do in_set_parents.append(graph.nodes[parent].name) %}
    {% endfor %}
    {% do downstream.append({'model': node.name, 'unique_id': unique_id, 'order': loop.index,
        'materialized': materialized, 'mapping': mapping, 'partition_by': spec.get('partition_by'),
        'parents': in_set_parents}) %}
  {% endfor %}
  {{ return(downstream) }}
{% endmacro %}
