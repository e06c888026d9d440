{#
  Nothing in a packet file is trusted that can be checked, before an operation that writes or drops anything
  (apply, rollback, clean) touches the database:
    - the target must be the relation dbt resolves for the packet's model in this project — an edited
      `target_relation` cannot point a replacement (or a drop) at another table;
    - the run id must be one plan could have made, and every stage, second build and backup must be the relation
      _stage_relations names for that run, target and partition position, in the model's stage schema (its
      meta.backfill.stage_schema, else <target schema>_backfill, as plan chose it): `clean` drops exactly the
      run's own relations;
    - with `packet_sha256` (the CLI's packets): a plan must have written a packet with exactly that content for the
      run (its `planned` audit row, which the CLI records after writing the packet) — an edited packet re-hashed to match a copied approval has no such
      row. The pure-dbt path checks its recorded packet instead (apply_backfill).
  `consequence` ends each refusal ("The target is unchanged." / "Nothing was dropped.").
#}
{% macro _check_packet(model, target, run_id, partitions, packet_sha256=none, consequence='The target is unchanged.') %}
  {% set node = dbt_backfill._model_node(model) %}
  {% set expected = {'database': node.database, 'schema': node.schema, 'identifier': node.alias or node.name} %}
  {% set database_differs = target.get('database') and expected.database and target.get('database') != expected.database %}
  {% if database_differs or target.schema != expected.schema or target.identifier != expected.identifier %}
    {% do dbt_backfill._refuse('packet_target_not_the_model',
        'the packet names ' ~ dbt_backfill._relation_name(dbt_backfill._relation(target)) ~ ' as the target of ' ~ model
        ~ ', but dbt resolves ' ~ model ~ ' to ' ~ dbt_backfill._relation_name(dbt_backfill._relation(expected))
        ~ ' in this project: the packet was edited, or is for another project or target. ' ~ consequence,
        {'packet_target': target, 'model_relation': expected}) %}
  {% endif %}
  {% if not modules.re.fullmatch('[a-z0-9_]{1,40}', run_id | string) %}
    {% do dbt_backfill._refuse('packet_run_id', 'the packet\'s run id ' ~ tojson(run_id) ~ ' is not one a plan makes '
        ~ '(lower-case letters, digits and underscores). ' ~ consequence, {'run_id': run_id}) %}
  {% endif %}
  {% set target_relation = dbt_backfill._relation(expected) %}
  {% set spec = (node.config.meta or {}).get('backfill') or (node.meta or {}).get('backfill') or {} %}
  {% set stage_schema = spec.get('stage_schema') or (target_relation.schema ~ '_backfill') %}
  {% for partition in partitions %}
    {% set named = dbt_backfill._stage_relations(target_relation, stage_schema, run_id, loop.index0) %}
    {% for key, suffix in [('stage', 'a'), ('stage_b', 'b'), ('backup', 'backup')] %}
      {% set ref = partition[key] %}
      {% set wanted = named[suffix] %}
      {% if stage_schema == target_relation.schema or ref.schema != wanted.schema or ref.identifier != wanted.identifier
            or (ref.get('database') or none) != (wanted.database or none) %}
        {% do dbt_backfill._refuse('packet_relations',
            'the packet names ' ~ dbt_backfill._relation_name(dbt_backfill._relation(ref)) ~ ' as the ' ~ key | replace('_', ' ')
            ~ ' of partition ' ~ partition.value ~ ', but this run\'s is ' ~ dbt_backfill._relation_name(wanted)
            ~ ' (in the model\'s stage schema, named for the run and the partition\'s position): the packet was edited. '
            ~ consequence,
            {'partition': partition.value, 'named': ref, 'expected': dbt_backfill._relation_ref(wanted)}) %}
      {% endif %}
    {% endfor %}
  {% endfor %}
  {% if packet_sha256 %}
    {% set audit = dbt_backfill._audit_relation(target_relation) %}
    {% set written = [] %}
    {% if adapter.get_relation(database=audit.database, schema=audit.schema, identifier=audit.identifier) is not none %}
      {% set written = dbt_backfill._execute('select packet_sha256 from ' ~ audit ~ ' where event = \'planned\' and run_id = '
          ~ dbt_backfill._sql_literal(run_id)).rows %}
      {% do dbt_backfill._commit() %}
    {% endif %}
    {# exactly one: a run's plan writes one packet, and audit_event refuses a second record for a run #}
    {% if written | length != 1 or written[0][0] != packet_sha256 %}
      {% do dbt_backfill._refuse('packet_not_planned',
          'no plan wrote a packet with this content (sha256 ' ~ packet_sha256[:12] ~ '…) for run ' ~ run_id ~ ' (the audit trail, '
          ~ dbt_backfill._relation_name(audit) ~ ', records every packet a plan writes): it was edited after the plan, or made '
          ~ 'by hand. Plan again. ' ~ consequence, {'run_id': run_id, 'packet_sha256': packet_sha256}) %}
    {% endif %}
  {% endif %}
{% endmacro %}
