{#
  The live job's watermark as meta.backfill.watermark declares it, read now:
    {column: c}      the maximum of c in the target (a live job that resumes from max(c) of its own table)
    {relation: r}    the fingerprint of a state table ("schema.table" or "database.schema.table")
    {query: sql}     the rows a query returns, as text
  Returns {kind, value}. A backfill must leave it where it was.
#}
{% macro watermark_state(watermark, target_relation) %}
  {% set string_type = dbt.type_string() %}
  {% if watermark.get('column') %}
    {% set column = dbt_backfill._columns(target_relation, [watermark.column], 'watermark column')[0] %}
    {% set row = dbt_backfill._execute('select cast(max(' ~ adapter.quote(column.name) ~ ') as ' ~ string_type ~ ') as bf_max from ' ~ target_relation).rows[0] %}
    {{ return({'kind': 'column', 'column': column.name, 'value': row['bf_max']}) }}
  {% elif watermark.get('relation') %}
    {% set parts = watermark.relation.split('.') %}
    {% set relation = adapter.get_relation(database=(parts[-3] if parts | length > 2 else target_relation.database),
                                           schema=parts[-2] if parts | length > 1 else target_relation.schema,
                                           identifier=parts[-1]) %}
    {% if relation is none %}
      {% do dbt_backfill._fail("meta.backfill.watermark.relation " ~ watermark.relation ~ " does not exist. Nothing was changed.") %}
    {% endif %}
    {# the live job's own table: each reading reads its columns too (a column added is a change) #}
    {% do dbt_backfill._forget_columns(relation) %}
    {% set columns = dbt_backfill._columns(relation, dbt_backfill._column_names(relation), 'watermark column') %}
    {{ return({'kind': 'relation', 'relation': watermark.relation, 'value': dbt_backfill.fingerprint_relation(relation, columns).sha256}) }}
  {% elif watermark.get('query') %}
    {% set rows = [] %}
    {% for row in dbt_backfill._execute(watermark.query).rows %}
      {% set cells = [] %}
      {% for cell in row %}{% do cells.append(cell | string) %}{% endfor %}
      {% do rows.append(cells) %}
    {% endfor %}
    {{ return({'kind': 'query', 'query': watermark.query, 'value': rows}) }}
  {% else %}
    {% do dbt_backfill._fail("meta.backfill.watermark must be {column: ...}, {relation: ...} or {query: ...}, not "
        ~ tojson(watermark) ~ ". Nothing was changed.") %}
  {% endif %}
{% endmacro %}

{# The column watermark the target would have after the backfill: the maximum over the target's rows outside the
   named partitions and every stage, compared with today's in the database's own type. #}
{% macro _watermark_after(watermark_column, target_relation, stages, scope) %}
  {% set string_type = dbt.type_string() %}
  {% set column = adapter.quote(watermark_column) %}
  {% set values = [] %}
  {% for stage in stages %}{% do values.append(stage.value) %}{% endfor %}
  {% set query %}
    with after_rows as (
      select {{ column }} as bf_value from {{ target_relation }} where {{ dbt_backfill._outside_partitions(scope, values) }}
      {% for stage in stages %} union all select {{ column }} from {{ stage.relation }}{% endfor %}
    ),
    before_max as (select max({{ column }}) as bf_max from {{ target_relation }}),
    after_max as (select max(bf_value) as bf_max from after_rows)
    select cast(a.bf_max as {{ string_type }}) as bf_after,
           case when a.bf_max > b.bf_max or (b.bf_max is null and a.bf_max is not null) then 'raised' else 'kept' end as bf_verdict
    from after_max a cross join before_max b
  {% endset %}
  {% set row = dbt_backfill._execute(query).rows[0] %}
  {{ return({'value': row['bf_after'], 'raised': row['bf_verdict'] == 'raised'}) }}
{% endmacro %}

{# Whether the watermark moved from `before` to `now`: a column watermark when its maximum rose (compared in the
   column's own type), a state table or query when it reads differently at all. #}
{% macro _watermark_moved(target_relation, before, now) %}
  {% if before.kind != 'column' %}
    {{ return(now.value != before.value) }}
  {% endif %}
  {% if now.value is none %}
    {{ return(false) }}
  {% elif before.value is none %}
    {{ return(true) }}
  {% endif %}
  {% set column = dbt_backfill._columns(target_relation, [before.column], 'watermark column')[0] %}
  {% set query %}
    select case when cast({{ dbt_backfill._sql_literal(now.value) }} as {{ column.data_type }})
                   > cast({{ dbt_backfill._sql_literal(before.value) }} as {{ column.data_type }})
                then 'raised' else 'kept' end as bf_verdict
  {% endset %}
  {{ return(dbt_backfill._execute(query).rows[0]['bf_verdict'] == 'raised') }}
{% endmacro %}

{# How a person names the watermark: max(col), the state relation, or the query. #}
{% macro _describe_watermark(state) %}
  {{ return('max(' ~ state.column ~ ')' if state.kind == 'column' else (state.relation if state.kind == 'relation' else state.query)) }}
{% endmacro %}
