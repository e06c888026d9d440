{#
  The whole-history proof of the input windows, kept in the audit trail (event `window_proven`) and reused while it
  can be trusted (docs/DECISIONS.md, row 82). Every windowed plan checks its own partitions
  through widened windows (_input_windows: `checked`); the proof that builds them from the whole inputs runs when
  the code it proved is not the code being planned, or it is too old, or it failed, or it is asked for.

  What the proof is bound to: the SHA-256 of the compiled SQL, every input with its columns and types and its
  event_time, the declared window and where it came from, the partition column, dbt's version, the adapter and the
  engine's version (the adapter plugin's version is not visible to a macro; the engine's decides what the SQL
  means). Returns {sha256, parts}.
#}
{% macro _window_binding(model_sql, windowing, sources, partition_by) %}
  {% set inputs = [] %}
  {% for source in sources %}
    {% set relation = dbt_backfill._relation(source) %}
    {% set columns = [] %}
    {% for column in dbt_backfill._relation_columns(relation) %}{% do columns.append([column.name, column.data_type]) %}{% endfor %}
    {% do inputs.append({'relation': dbt_backfill._relation_name(relation), 'event_time': source.get('event_time'),
                         'columns': columns}) %}
  {% endfor %}
  {% set parts = {'compiled_sql_sha256': dbt_backfill._sha256_of_text(model_sql),
                  'inputs': inputs | sort(attribute='relation'),
                  'input_window': {'before': windowing.before, 'after': windowing.after, 'declared_by': windowing.declared_by},
                  'partition_by': partition_by, 'dbt_version': dbt_version | string, 'adapter': adapter.type(),
                  'engine_version': dbt_backfill._execute('select version() as v').rows[0]['v'] | string} %}
  {{ return({'sha256': dbt_backfill._sha256_of_text(tojson(parts, sort_keys=true)), 'parts': parts}) }}
{% endmacro %}
