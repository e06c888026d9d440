{# Every relation a model reads (sources, and models, seeds and snapshots upstream), looking through ephemeral
   models, which have no relation of their own; as relation refs, sorted by name. Each ref also carries the name
   dbt renders for it in compiled SQL (`relation_name`) and its `event_time` config (none where not declared):
   what the input windows need; and, where declared, the column that says when a row last changed (`changed_at`:
   meta.backfill.changed_at, else a source's loaded_at_field): what the stale scan reads. #}
{% macro _relations_read(node) %}
  {% set found = {} %}
  {% set pending = node.depends_on.nodes | list %}
  {% set seen = [] %}
  {% for _ in range(1000) if pending %}
    {% set unique_id = pending.pop(0) %}
    {% if unique_id not in seen %}
      {% do seen.append(unique_id) %}
      {% set upstream = graph.sources.get(unique_id) or graph.nodes.get(unique_id) %}
      {% if upstream and upstream.resource_type in ('source', 'model', 'seed', 'snapshot') %}
        {% if upstream.resource_type != 'source' and upstream.config.materialized == 'ephemeral' %}
          {% do pending.extend(upstream.depends_on.nodes) %}
        {% else %}
          {% set ref = {'database': upstream.database, 'schema': upstream.schema,
                        'identifier': upstream.identifier if upstream.resource_type == 'source' else (upstream.alias or upstream.name),
                        'relation_name': upstream.relation_name, 'event_time': (upstream.config or {}).get('event_time')} %}
          {# a relation dbt itself writes (a model, snapshot or seed) is pinned by its content: a scheduled run
             that rewrites the same rows leaves what the builds read as it was (source_state) #}
          {% if upstream.resource_type != 'source' %}{% do ref.update({'content': true}) %}{% endif %}
          {% set changed_at = dbt_backfill._changed_at_column(upstream) %}
          {% if changed_at %}
            {% do ref.update({'changed_at': changed_at, 'changed_at_time_zone': dbt_backfill._changed_at_column(upstream, 'changed_at_time_zone')}) %}
          {% endif %}
          {% do found.update({dbt_backfill._relation_name(dbt_backfill._relation(ref)): ref}) %}
        {% endif %}
      {% endif %}
    {% endif %}
  {% endfor %}
  {% set refs = [] %}
  {% for name in found.keys() | sort %}{% do refs.append(found[name]) %}{% endfor %}
  {{ return(refs) }}
{% endmacro %}

{# The column of an input that says when each row last changed: its meta.backfill.changed_at (under config or at
   the top), else a source's loaded_at_field (dbt's freshness column); none when neither is declared. With `key`
   changed_at_time_zone: the time zone its values are written in, where it has none (meta.backfill only; none: UTC,
   as dbt reads a loaded_at_field, _input_changes). #}
{% macro _changed_at_column(upstream, key='changed_at') %}
  {% set declared = [] %}
  {% for meta in [(upstream.config or {}).get('meta'), upstream.get('meta')] if meta and meta.get('backfill') %}
    {% if meta.backfill.get(key) %}{% do declared.append(meta.backfill[key]) %}{% endif %}
  {% endfor %}
  {% set loaded_at = upstream.get('loaded_at_field') or ((upstream.config or {}).get('loaded_at_field')) %}
  {{ return(declared[0] if declared else (loaded_at if key == 'changed_at' else none) or none) }}
{% endmacro %}
