{#
  Where a downstream model that the cascade did not rebuild differs from a full build of it now: its SQL (compiled
  with --full-refresh) evaluated once and compared with its table, each minus the other, over every column but its
  meta.backfill.exclude_columns (columns without an equality of their own compare as their text). Its contract is
  read here, as every reader of one reads it (_meta_backfill, _spec_names). With its meta.backfill.partition_by, the
  partitions that differ, in order, and the same as inclusive ranges (`ranges`, what plan takes); without it, only
  how many rows differ. `by_partition`: whether a plan can repair it (a partition column and a business key
  declared, and not a `table`, which its next run rebuilds whole). Only reads. Emits `drift`: {differing, ranges,
  differing_rows, by_partition}.

  dbt run-operation dbt_backfill.downstream_drift --args '{model: fin_daily_revenue, model_sql: <compiled --full-refresh>}'
#}
{% macro downstream_drift(model, model_sql) %}
  {% do dbt_backfill.refuse_unsafe_search_path() %}
  {% set node = dbt_backfill._model_node(model) %}
  {% set declared = dbt_backfill._meta_backfill(node) %}
  {% set declared = declared if declared is mapping else {} %}
  {% set partition_by = declared.get('partition_by') or none %}
  {% set exclude_columns = dbt_backfill._spec_names(declared.get('exclude_columns'), 'exclude_columns', model) %}
  {% set relation = dbt_backfill._target_relation({'database': node.database, 'schema': node.schema,
                                                   'identifier': node.alias or node.name}) %}
  {% set excluded = exclude_columns | map('lower') | list %}
  {% set compared = [] %}
  {% for c in dbt_backfill._relation_columns(relation) if (c.name | lower) not in excluded or c.name == partition_by %}
    {% set name = adapter.quote(c.name) %}
    {% do compared.append(('cast(' ~ name ~ ' as ' ~ dbt.type_string() ~ ') as ' ~ name)
        if dbt_backfill._type_family(c.data_type) in ('other', 'nested') else name) %}
  {% endfor %}
  {% set family = none %}
  {% if partition_by %}
    {% set partition_column = dbt_backfill._columns(relation, [partition_by], 'partition_by')[0] %}
    {% set family = dbt_backfill._type_family(partition_column.data_type) %}
  {% endif %}
  {% set grouped = adapter.quote(partition_column.name) if partition_by else none %}
  {% set query %}
    with built as (select {{ compared | join(', ') }} from ({{ dbt_backfill._strip_statement_end(model_sql) }}) as model_rows),
         held as (select {{ compared | join(', ') }} from {{ relation }}),
         differing as ((select * from built except all select * from held) union all (select * from held except all select * from built))
    {% if grouped %}
    select {{ grouped }} as partition_value, count(*) as differing_rows from differing group by {{ grouped }}
    {% else %}
    select count(*) as differing_rows from differing
    {% endif %}
  {% endset %}
  {% do dbt_backfill._step('comparing ' ~ model ~ ' with a full build of it',
      'comparing ' ~ model ~ ' with a full build of it (its SQL compiled with --full-refresh) failed (see the error '
      ~ 'below); it only reads, and nothing of ' ~ model ~ ' was changed.') %}
  {% set found = dbt_backfill._execute(query) %}
  {% do dbt_backfill._commit() %}
  {% set differing = [] %}
  {% set rows = [] %}
  {% for row in found.rows %}
    {% do rows.append(row['differing_rows'] | int) %}
    {% if partition_by %}
      {% do differing.append('NULL' if row['partition_value'] is none else dbt_backfill._partition_text(row['partition_value'], family)) %}
    {% endif %}
  {% endfor %}
  {% set values = dbt_backfill._in_order(differing, family) %}
  {% do dbt_backfill._emit_result('drift', {'differing': values if partition_by else none,
      'ranges': dbt_backfill._as_ranges(values, family) if partition_by else none, 'differing_rows': rows | sum,
      'by_partition': true if (partition_by and declared.get('business_key') and node.config.materialized != 'table') else false}) %}
{% endmacro %}
