{#
  Nothing in a packet file is trusted that can be checked, before an operation that writes or drops anything
  (apply, rollback, clean) touches the database:
    - the target must be the relation dbt resolves for the packet's model in this project — an edited
      `target_relation` cannot point a replacement (or a drop) at another table;
    - the run id must be one plan could have made, and every stage, second build and backup must be the relation
      _stage_relations names for that run, target and partition position, in the model's stage schema (its
      meta.backfill.stage_schema, else <target schema>_backfill, as plan chose it): `clean` drops exactly the
      run's own relations;
    - a plan must have written a packet with exactly `packet_sha256` for the run, and the arguments must be what
      it planned (_planned_record).
  `consequence` ends each refusal ("The target is unchanged." / "Nothing was dropped.").
  Returns the plan's record: {expires_at}.
#}
{% macro _check_packet(model, target, run_id, partitions, packet_sha256=none, consequence='The target is unchanged.',
                       publishing=false) %}
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
  {% set spec = dbt_backfill._meta_backfill(node) or {} %}
  {% set stage_schema = spec.get('stage_schema') or (target_relation.schema ~ '_backfill') %}
  {% for partition in partitions %}
    {% set named = dbt_backfill._stage_relations(target_relation, stage_schema, run_id, loop.index0) %}
    {% for key, suffix in [('stage', 'a'), ('stage_b', 'b'), ('backup', 'backup')] %}
      {% set ref = partition[key] %}
      {% set wanted = named[suffix] %}
      {% if (stage_schema | lower) == (target_relation.schema | lower) or ref.schema != wanted.schema or ref.identifier != wanted.identifier
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
  {{ return(dbt_backfill._planned_record(target_relation, run_id, partitions, packet_sha256, consequence, publishing)) }}
{% endmacro %}

{#
  What the database recorded of the run's plan, and the check that the caller's arguments are it. A plan must have
  written a packet with exactly `packet_sha256` for the run: the CLI's `planned` row (recorded after it wrote the
  packet file, with its SHA-256), or the pure-dbt path's `packet_recorded` row (the SHA-256 recomputed over the
  recorded text). An edited packet re-hashed to match a copied approval has neither. And since an operation takes
  the packet's fields as arguments, which a direct `run-operation` could give apart from that SHA-256, the ones a
  write trusts are read from the database: each partition's approved fingerprint must be the one the `planned` row
  holds, and the approval's deadline is the one the plan recorded before it built anything (its
  `building_stages` row; the earliest, should there be more), whatever the caller says. Only rows a trusted
  writer wrote count (_trusted_writer); for an apply (`publishing`), only rows that name their writer: a packet
  planned before the trail was attributed is planned again, while its rollback and clean read it as before.
  Returns {expires_at}.
#}
{% macro _planned_record(target_relation, run_id, partitions, packet_sha256, consequence, publishing=false) %}
  {% set audit = dbt_backfill._audit_relation(target_relation) %}
  {% set rows = [] %}
  {% if packet_sha256 and adapter.get_relation(database=audit.database, schema=audit.schema, identifier=audit.identifier) is not none %}
    {% do dbt_backfill.refuse_untrusted_audit_table(audit, target_relation) %}
    {% set rows = dbt_backfill._execute('select event, packet_sha256, fingerprint_after, detail, '
        ~ dbt_backfill.sha256_hex('detail') ~ ' as digest from ' ~ audit ~ ' where run_id = ' ~ dbt_backfill._sql_literal(run_id)
        ~ " and event in ('planned', 'packet_recorded', 'building_stages')"
        ~ ' and ' ~ dbt_backfill._trusted_writer(audit, target_relation, attributed_only=publishing) ~ ' order by recorded_at').rows %}
    {% do dbt_backfill._commit() %}
  {% endif %}
  {% set planned = rows | selectattr(0, 'equalto', 'planned') | list %}
  {% set recorded = rows | selectattr(0, 'equalto', 'packet_recorded') | list %}
  {% set building = rows | selectattr(0, 'equalto', 'building_stages') | list %}
  {# exactly one of each: a run's plan writes one packet, and audit_event refuses a second record for a run #}
  {% set written = (planned | length == 1 and planned[0][1] == packet_sha256)
                   or (recorded | length == 1 and recorded[0][4] == packet_sha256) %}
  {% if not packet_sha256 or not written %}
    {% do dbt_backfill._refuse('packet_not_planned',
        'no plan wrote a packet with this content (sha256 ' ~ (packet_sha256 or 'none')[:12] ~ '…) for run ' ~ run_id ~ ' (the audit trail, '
        ~ dbt_backfill._relation_name(audit) ~ ', records every packet a plan writes): it was edited after the plan, or made '
        ~ 'by hand. Plan again. ' ~ consequence, {'run_id': run_id, 'packet_sha256': packet_sha256}) %}
  {% endif %}
  {% set given = [] %}
  {% for partition in partitions %}{% do given.append((partition.get('fingerprint') or {}).get('sha256')) %}{% endfor %}
  {% if fromjson(planned[0][2] or '[]') != given %}
    {% do dbt_backfill._refuse('packet_not_planned',
        'the partitions given for run ' ~ run_id ~ ' are not the ones its plan fingerprinted (the `planned` row of '
        ~ dbt_backfill._relation_name(audit) ~ '): they were changed after the plan. Plan again. ' ~ consequence,
        {'run_id': run_id}) %}
  {% endif %}
  {% set deadlines = [] %}
  {% for row in building %}{% do deadlines.append((fromjson(row[3] or '{}') or {}).get('expires_at') or '') %}{% endfor %}
  {# the earliest (a row added later cannot extend it) #}
  {{ return({'expires_at': (deadlines | sort | first) if deadlines else none}) }}
{% endmacro %}
