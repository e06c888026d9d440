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
