{#
  Drop what dbt-backfill created and no packet needs, without a packet: `dbt-backfill clean --run RUN_ID` (one run)
  and `clean --orphans` (every run). What it created is known from the audit trail, never from looking around:
  each plan records `building_stages` (its stage schema and number of partitions) before its first stage exists,
  so a plan that failed, was refused or was killed is found too. From that row only the run id and the count are
  taken; the relations are the ones _stage_relations names for that run, the model's target and each position, in
  the model's stage schema as this project declares it — so a forged audit row can name nothing outside the stage
  schema, and nothing not named the way a plan names its stages. Each is dropped as a table, without CASCADE (a
  view or anything else of that name is left, and said so).

  Which of a run's relations no packet needs:
    - builds a and b: with run_id, all (asked by name). Otherwise (orphans) those of a run whose plan wrote no
      packet (no `planned` / `packet_recorded` row), whose packet was judged BLOCK (for review only), or whose
      approval deadline has passed (apply refuses it); a run younger than `older_than_hours` that wrote no packet
      yet is left (a plan may still be building it). When a run has more than one
      `building_stages` row, any of them that says keep keeps the run's builds;
    - backups: a run never applied has no rollback to keep. One whose apply began (`approved`, recorded by the
      first apply before any partition, or `partition_replaced`) may still need its backups for a rollback, which
      only its packet can tell: kept unless run_id and drop_backups.
  With drop=false nothing is dropped: the list says what would be. Takes the backfill lock of each target whose
  relations it drops (as apply and rollback do), records one `cleaned` row per run ({dropped, by}).
  Emits `orphans`: {relations: [{run_id, model, relation, kind, action: drop|dropped|keep, reason}], audits}.
#}
{% macro clean_orphans(run_id=none, older_than_hours=24, drop=false, drop_backups=false, cleaned_by=none) %}
  {% do dbt_backfill.refuse_unsafe_search_path() %}
  {% if run_id is not none and not modules.re.fullmatch('[a-z0-9_]{1,40}', run_id | string) %}
    {% do dbt_backfill._fail('run id ' ~ tojson(run_id) ~ ' is not one a plan makes (lower-case letters, digits and '
        ~ 'underscores). Nothing was dropped.') %}
  {% endif %}
  {% set cutoff = (modules.datetime.datetime.utcnow() - modules.datetime.timedelta(hours=older_than_hours | float))
      .replace(microsecond=0).isoformat() ~ '+00:00' %}
  {% set found = [] %}
  {% set audits = [] %}
  {% for model in graph.nodes.values() | selectattr('resource_type', 'equalto', 'model')
        if model.config.materialized != 'ephemeral' %}
    {% do dbt_backfill._orphans_of(model, run_id, cutoff, older_than_hours, drop_backups, found, audits) %}
  {% endfor %}

  {# a relation two models' trails both name (two models whose names share their first 24 characters and a stage
     schema, or a forged row under another model): whose it is cannot be told, so it is kept for both #}
  {% set claims = {} %}
  {% for item in found if item.relation is not string %}
    {% do claims.setdefault(dbt_backfill._relation_name(item.relation), []).append(item.model) %}
  {% endfor %}
  {% for item in found if item.relation is not string and claims[dbt_backfill._relation_name(item.relation)] | unique | list | length > 1 %}
    {% do item.update({'action': 'keep', 'reason': 'named by the audit trails of ' ~ (claims[dbt_backfill._relation_name(item.relation)]
        | unique | join(' and ')) ~ ': whose it is cannot be told, so it is not dropped'}) %}
  {% endfor %}
  {% set dropping = found | selectattr('action', 'equalto', 'drop') | list %}
  {% if drop and dropping %}
    {% do dbt_backfill._drop_orphans(dropping, run_id, cleaned_by) %}
  {% endif %}
  {% set listed = [] %}
  {% for item in found %}
    {% do listed.append({'run_id': item.run_id, 'model': item.model, 'kind': item.kind, 'action': item.action,
        'reason': item.reason, 'relation': item.relation if item.relation is string else dbt_backfill._relation_name(item.relation)}) %}
  {% endfor %}
  {% do dbt_backfill._emit_result('orphans', {'relations': listed, 'audits': audits | unique | list}) %}
  {{ return(listed) }}
{% endmacro %}

{# What clean_orphans finds of one model's runs (appended to `found`: {run_id, model, relation, kind, action, reason,
   and for a relation: target, unit}), and its audit table's name when the trail records runs (`audits`). #}
{% macro _orphans_of(model, run_id, cutoff, older_than_hours, drop_backups, found, audits) %}
  {% set target_relation = api.Relation.create(database=model.database, schema=model.schema,
                                               identifier=model.alias or model.name, type='table') %}
  {% set spec = dbt_backfill._meta_backfill(model) or {} %}
  {% set stage_schema = spec.get('stage_schema') or (model.schema ~ '_backfill') %}
  {% set audit = dbt_backfill._audit_relation(target_relation) %}
  {% set runs = dbt_backfill._runs_recorded(audit, target_relation, model.name, run_id) %}
  {% if runs %}{% do audits.append(dbt_backfill._relation_name(audit)) %}{% endif %}
  {% set layout = dbt_backfill._target_layout(target_relation) if runs and adapter.get_relation(database=target_relation.database,
      schema=target_relation.schema, identifier=target_relation.identifier) is not none else {} %}
  {% for run in runs if (stage_schema | lower) != (model.schema | lower) %}
    {# a run's builds are kept when any of its rows says so (a row added later cannot make a live run's stages
       droppable): the reason is the first one found #}
    {% set keep_stages = [] %}
    {% for building in run.building if run_id is none and not run.blocked %}
      {# a packet written means its plan has finished building; a packet judged BLOCK is for review only: no apply
         can use its stages #}
      {% if building.at > cutoff and not run.planned %}
        {% do keep_stages.append('a plan may still be building it (recorded ' ~ building.at ~ ', less than '
            ~ older_than_hours ~ ' h ago)') %}
      {% elif run.planned and not dbt_backfill._deadline_passed(building.expires_at) %}
        {% do keep_stages.append('its packet can be applied until ' ~ building.expires_at) %}
      {% endif %}
    {% endfor %}
    {% set why_stage = keep_stages | first if keep_stages else none %}
    {% for building in run.building %}
      {% set why_backup = none if not run.replaced or (run_id is not none and drop_backups) else
          'an apply of the run began: a rollback may need it (a clean by the run\'s packet knows: `dbt-backfill clean PACKET`, or clean_backfill of the run; or drop it with --drop-backups / drop_backups: true)' %}
      {% if building.stage_schema != stage_schema %}
        {% do found.append({'run_id': run.run_id, 'model': model.name, 'relation': building.stage_schema ~ '.*',
            'kind': 'stages', 'action': 'keep', 'reason': 'recorded in schema ' ~ building.stage_schema ~ ', which is not '
            ~ model.name ~ '\'s stage schema (' ~ stage_schema ~ ') in this project: not dropped'}) %}
      {% else %}
        {% set named = [] %}
        {% for index in range(building.partitions) %}
          {% set stages = dbt_backfill._stage_relations(target_relation, stage_schema, run.run_id, index) %}
          {% for kind in ['a', 'b', 'backup', 'whole', 'a_w'] %}{% do named.append((kind, stages[kind])) %}{% endfor %}
        {% endfor %}
        {# every name looked up in one read of the catalog (_relations_named), not one search each #}
        {% set existing = dbt_backfill._relations_named(named | map(attribute=1) | list, target_relation) %}
        {% for kind, stage in named %}
          {% set relation = existing[loop.index0] %}
          {% if relation is not none %}
            {% set reason = (why_backup if kind == 'backup' else why_stage) %}
            {% if not relation.is_table %}
              {% set reason = 'a ' ~ relation.type ~ ', not the table a plan creates: not dropped' %}
            {% endif %}
            {% do found.append({'run_id': run.run_id, 'model': model.name, 'relation': relation, 'target': target_relation,
                'kind': {'a': 'build a', 'b': 'build b', 'backup': 'backup', 'whole': 'whole build', 'a_w': 'written copy'}[kind],
                'unit': {'column': spec.get('partition_by'), 'value': none, 'root': layout.get('location'),
                         'format': (layout.get('provider') or '') | lower or none},
                'action': 'keep' if reason else 'drop', 'reason': reason}) %}
          {% endif %}
        {% endfor %}
      {% endif %}
    {% endfor %}
  {% endfor %}
{% endmacro %}

{# Drop what clean_orphans found droppable: under each target's backfill lock, the drops and their audit rows (one
   `cleaned` row per run) in one transaction (where the engine has them), as clean_run. #}
{% macro _drop_orphans(dropping, run_id, cleaned_by) %}
  {% set locked = [] %}
  {% for item in dropping if dbt_backfill._relation_name(item.target) not in locked %}
    {% do dbt_backfill.acquire_target_lock(item.target) %}
    {% do locked.append(dbt_backfill._relation_name(item.target)) %}
  {% endfor %}
  {% set by_run = {} %}
  {% do dbt_backfill.begin_transaction() %}
  {% do dbt_backfill.refuse_unsafe_search_path() %}  {# checked again inside the transaction that drops #}
  {% for item in dropping %}
    {% set released = dbt_backfill._release_storage(item.relation, item.target, item.unit) %}
    {% do item.update({'directories': released}) %}
    {% do dbt_backfill._forget_columns(item.relation) %}
    {% do dbt_backfill._execute('drop table ' ~ item.relation, fetch=false) %}
    {% do item.update({'action': 'dropped'}) %}
    {% set cleaned = by_run.setdefault(item.run_id, {'target': item.target, 'model': item.model, 'dropped': [], 'deleted': []}) %}
    {% do cleaned.dropped.append(dbt_backfill._relation_name(item.relation)) %}
    {% do cleaned.deleted.extend(released.deleted) %}
  {% endfor %}
  {% for cleaned_run, cleaned in by_run.items() %}
    {% do dbt_backfill.record_audit_event(cleaned.target, 'cleaned', cleaned_run, {'model': cleaned.model,
        'outcome': 'dropped ' ~ cleaned.dropped | length ~ ' relations (' ~ ('--run' if run_id else '--orphans') ~ ')'
                   ~ ((', deleted ' ~ cleaned.deleted | length ~ ' directories') if cleaned.deleted else ''),
        'detail': {'dropped': cleaned.dropped, 'deleted_directories': cleaned.deleted, 'by': cleaned_by}}) %}
  {% endfor %}
  {% do dbt_backfill._commit() %}
{% endmacro %}

{# The runs of `model` the audit table records building stages for (one run with run_id): [{run_id, building:
   [{stage_schema, partitions, expires_at, at}], planned, blocked (its packet judged BLOCK), replaced}]. Read only;
   an absent table has none. #}
{% macro _runs_recorded(audit, target_relation, model_name, run_id) %}
  {% if adapter.get_relation(database=audit.database, schema=audit.schema, identifier=audit.identifier) is none %}
    {{ return([]) }}
  {% endif %}
  {% set rows = dbt_backfill._execute('select run_id, event, outcome, detail from ' ~ audit ~ ' where model = '
      ~ dbt_backfill._sql_literal(model_name) ~ " and event in ('building_stages', 'planned', 'packet_recorded', "
      ~ "'partition_replaced', 'approved') and " ~ dbt_backfill._trusted_writer(audit, target_relation) ~ (' and run_id = ' ~ dbt_backfill._sql_literal(run_id) if run_id is not none else '')
      ~ ' order by recorded_at').rows %}
  {% do dbt_backfill._commit() %}
  {% set runs = {} %}
  {% for row in rows if modules.re.fullmatch('[a-z0-9_]{1,40}', row['run_id'] or '') %}
    {% set run = runs.setdefault(row['run_id'], {'run_id': row['run_id'], 'building': [], 'planned': false, 'replaced': false,
                                                  'blocked': false}) %}
    {% if row['event'] == 'building_stages' %}
      {% set detail = fromjson(row['detail'] or '{}') %}
      {% if detail.get('stage_schema') is string and (detail.get('partitions') | int) > 0 %}
        {% do run.building.append({'stage_schema': detail.stage_schema, 'partitions': [detail.partitions | int, 10000] | min,
                                   'expires_at': detail.get('expires_at') | string, 'at': detail.get('at') | string}) %}
      {% endif %}
    {# an apply began (its first act records the approval): it may have replaced partitions before any row says so
       — on Spark a swap is visible before its partition_replaced row, and a resumed apply records a partition the
       killed one swapped as skipped #}
    {% elif row['event'] in ('partition_replaced', 'approved') %}
      {% do run.update({'replaced': true}) %}
    {% else %}
      {# the plan's verdict: a BLOCK packet is for review only, never applied #}
      {% do run.update({'planned': true, 'blocked': row['outcome'] == 'BLOCK'}) %}
    {% endif %}
  {% endfor %}
  {{ return(runs.values() | list) }}
{% endmacro %}
