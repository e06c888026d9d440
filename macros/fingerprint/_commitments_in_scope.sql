{# The commitments of several relations or partitions, `items`: [{relation, row_count, value: a partition of it, or
   none for all of it}], as _commitment_in_scope gives each alone, in one statement per set of relations typed alike
   (a union coerces one relation's values to another's types) instead of one each (issue 57). An item without rows
   gives no group and is committed to alone, and so is one of more than 65,536 rows: a statement's own cost is what
   one statement for many saves, nothing beside a large partition's sort, which a union makes one wider sort (bench P7
   on PostgreSQL: a 200,000-row stage and its target partition, 0.73 s apart, 0.96 s together). For the same reason
   a statement takes items only up to 65,536 rows in all: 58 partitions of 260,000 rows in one statement sorted them
   on disk (work_mem 4 MB), 2.82 s against 2.16 s one statement each (an attack of 2026-12-07). Returns the
   commitments in the order of `items`. #}
{% macro _commitments_in_scope(items, scope) %}
  {% set groups = {} %}
  {# every item keeps its own index as its label: a filtered loop would count the items it kept #}
  {% for item in items %}
    {% if (item.row_count | int) <= 65536 %}
      {% set columns = dbt_backfill._columns(item.relation, dbt_backfill._column_names(item.relation), 'material column') %}
      {% set partition_column = dbt_backfill._columns(item.relation, [scope.partition_column.name], 'partition_by')[0] %}
      {% set statements = groups.setdefault(dbt_backfill._types_signature(columns), [{'rows': 0, 'branches': []}]) %}
      {% if statements[-1].rows + (item.row_count | int) > 65536 %}
        {% do statements.append({'rows': 0, 'branches': []}) %}
      {% endif %}
      {% do statements[-1].update({'rows': statements[-1].rows + (item.row_count | int)}) %}
      {% do statements[-1].branches.append(dbt_backfill._commitment_branch(item.relation, columns,
          dbt_backfill._partition_predicate(partition_column, item.value) if item.value is not none else none,
          item.row_count | int, 'cast(' ~ dbt_backfill._sql_literal(loop.index0 | string) ~ ' as ' ~ dbt.type_string() ~ ')')) %}
    {% endif %}
  {% endfor %}
  {% set found = {} %}
  {% for statements in groups.values() %}
    {% for statement in statements if statement.branches | length > 1 %}
      {% for row in dbt_backfill._execute(dbt_backfill._commitment_sql(statement.branches)).rows %}
        {% do found.update({row['bf_partition']: row['bf_commitment'] | string}) %}
      {% endfor %}
    {% endfor %}
  {% endfor %}
  {% set commitments = [] %}
  {% for item in items %}
    {% do commitments.append(found.get(loop.index0 | string) or dbt_backfill._commitment_in_scope(item.relation, scope,
        item.row_count | int, item.value, item.value is not none)) %}
  {% endfor %}
  {{ return(commitments) }}
{% endmacro %}
