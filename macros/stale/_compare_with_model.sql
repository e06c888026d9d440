{#
  Each of `values` as the target holds it and as the model's SQL builds it now, by fingerprint:
  {value: {target: {row_count, sha256, checksum}, model: {row_count, sha256}}} (an empty side: 0 rows, the
  fingerprint of none).
  The model's rows are built once for all of them, each column cast to the target's type (what a backfill would
  write), reading each windowed input only within the union of their windows (a window proven for a partition holds
  for any wider read); into a temporary table of this session, never in a schema: the SQL runs in the session
  exactly as `dbt run` has it (time zone, search path), its rows are fingerprinted in the pinned one. Both sides are
  fingerprinted grouped by partition, one scan each. The session table is left for _stale_details, then dropped
  (_drop_model_rows).
  Returns {by_value, rows: the session table}.
#}
{% macro _compare_with_model(relation, scope, model_sql, windowing, values) %}
  {% set names = dbt_backfill._column_names(relation) %}
  {% set declared = dbt_backfill._declared_types(relation) %}
  {% set recast = {} %}
  {% for name in names %}{% do recast.update({name: declared[name | lower]}) %}{% endfor %}
  {% set read = dbt_backfill._as_target_types(model_sql, recast, names) %}
  {% if windowing.mode == 'windowed' %}
    {% set spans = [] %}
    {% for value in values %}{% do spans.append([windowing.partitions[value].start, windowing.partitions[value].end]) %}{% endfor %}
    {% set read = dbt_backfill._windowed_sql(read, windowing.inputs, dbt_backfill._merged_spans(spans)) %}
  {% endif %}
  {% set rows = api.Relation.create(identifier='dbt_backfill_stale_' ~ (invocation_id | replace('-', ''))[:16], type='table') %}
  {% set where = dbt_backfill._partition_in(scope.partition_column, values) %}
  {% do dbt_backfill._step('building the model\'s rows of ' ~ values | length ~ ' partition(s) in a session table',
      'building the model\'s rows to compare failed (see the error below); the scan only reads, and nothing was changed.') %}
  {% do dbt_backfill._unpin_session() %}
  {% do dbt_backfill._execute(get_create_table_as_sql(True, rows, 'select * from (' ~ dbt_backfill._strip_statement_end(read)
                              ~ ') bf_model where ' ~ where), fetch=false) %}
  {% do dbt_backfill.pin_session() %}
  {# the target's side with its checksum, of the very rows compared: the basis of a vouch this scan gives (issue 54) #}
  {% set held = dbt_backfill._fingerprints_by_partition(relation, scope.material_columns, scope.partition_column, where,
                                                         checksum=true) %}
  {% set built = dbt_backfill._fingerprints_by_partition(rows, scope.material_columns, scope.partition_column, where) %}
  {% set empty = {'row_count': 0, 'sha256': dbt_backfill._sha256_of_text('0:0'), 'checksum': '0#0'} %}
  {% set by_value = {} %}
  {% for value in values %}
    {% do by_value.update({value: {'target': held.get(value, empty), 'model': built.get(value, empty)}}) %}
  {% endfor %}
  {{ return({'by_value': by_value, 'rows': rows}) }}
{% endmacro %}
