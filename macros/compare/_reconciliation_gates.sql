{#
  The model's reconciliation gates (meta.backfill.checks), validated before anything is built (call with
  planned=[]) and evaluated per partition on the approved build
  against the current target, in the database. Each check is a one-key mapping:

    - row_count_change_pct: 10          # |rows after - rows before| <= 10 % of rows before
    - no_new_nulls: [fare, status]      # no column gains NULLs
    - total_matches_control:            # an additive total within a tolerance of a control query
        column: fare
        query: "select sum(fare) from raw.trip_events where trip_date = {partition}"
        tolerance: 0.01

  `{partition}` in a control query becomes the partition value as a typed literal, and `{{ source('finance',
  'trip_ledger') }}` / `{{ ref('stg_ledger') }}` the relations dbt resolves (rendered at run time, in the
  operation's context: a query in a properties file must keep its Jinja from dbt's parse-time rendering with
  `{% raw %} … {% endraw %}`; one in the model's config() needs nothing). Returns a list of
  {check, partition, passed, observed, expected, detail}; raises naming a check it does not know.
#}
{% macro _reconciliation_gates(checks, target_relation, scope, planned) %}
  {% set string_type = dbt.type_string() %}
  {% set results = [] %}
  {% for check in checks or [] %}
    {% if check is not mapping or check | length != 1 %}
      {% do dbt_backfill._fail('meta.backfill.checks must be a list of one-key mappings (row_count_change_pct, '
          ~ 'no_new_nulls, total_matches_control), not ' ~ tojson(check) ~ '. Nothing was changed.') %}
    {% endif %}
    {% set kind = (check.keys() | list)[0] %}
    {% set setting = check[kind] %}
    {% if kind not in ('row_count_change_pct', 'no_new_nulls', 'total_matches_control') %}
      {% do dbt_backfill._fail('meta.backfill.checks has an unknown check ' ~ tojson(kind) ~ '; known: row_count_change_pct, '
          ~ 'no_new_nulls, total_matches_control. Nothing was changed.') %}
    {% endif %}
    {% if kind == 'total_matches_control' and (setting is not mapping or not setting.get('column') or not setting.get('query')) %}
      {% do dbt_backfill._fail('meta.backfill.checks total_matches_control needs column and query (and tolerance), not '
          ~ tojson(setting) ~ '. Nothing was changed.') %}
    {% endif %}
    {# rendered before anything is built (planned=[]): an unknown source or model is named now, not after the builds #}
    {% set control_query = dbt_backfill._rendered_control_query(setting.query) if kind == 'total_matches_control' else none %}
    {% if control_query is not none and not planned %}
      {# and run once over no partition (NULL, so it reads nothing): a query that renders but does not run (a wrong
         name, a syntax error) is named before any stage exists, not after both builds #}
      {% do dbt_backfill._step('trying the control query of total_matches_control', 'the control query of '
          ~ 'meta.backfill.checks total_matches_control failed (see the error below). Nothing was built; no packet was '
          ~ 'written and the target is unchanged.') %}
      {% do dbt_backfill._execute('select count(*) as bf_rows from (' ~ dbt_backfill._strip_statement_end(control_query
          | replace('{partition}', 'cast(null as ' ~ scope.partition_column.data_type ~ ')')) ~ ') bf_control where 1 = 0') %}
    {% endif %}
    {# a partition empty in the target and in the build has nothing to reconcile (the CLI stops on it) #}
    {% for partition in planned if partition.builds.a.row_count or partition.target_before.row_count %}
      {% set stage = partition.stage_relation %}
      {% set literal = 'cast(' ~ dbt_backfill._sql_literal(partition.value) ~ ' as ' ~ scope.partition_column.data_type ~ ')' %}
      {% set in_target = dbt_backfill._partition_predicate(scope.partition_column, partition.value) %}
      {% set before = partition.target_before.row_count %}
      {% set after = partition.builds.a.row_count %}
      {% if kind == 'row_count_change_pct' %}
        {% set limit = setting | float %}
        {% set change = ((after - before) | abs) * 100.0 / ([before, 1] | max) %}
        {% do results.append({'check': kind, 'partition': partition.value, 'passed': change <= limit,
            'observed': '%.2f %%' | format(change), 'expected': '<= ' ~ setting ~ ' %',
            'detail': before ~ ' -> ' ~ after ~ ' rows'}) %}
      {% elif kind == 'no_new_nulls' %}
        {% set columns = [setting] if setting is string else setting %}
        {% for column in dbt_backfill._columns(target_relation, columns, 'no_new_nulls column') %}
          {% set counted = dbt_backfill._execute('select cast((select count(*) from ' ~ target_relation ~ ' where ' ~ in_target
              ~ ' and ' ~ adapter.quote(column.name) ~ ' is null) as ' ~ string_type ~ ') as before_nulls, cast((select count(*) from '
              ~ stage ~ ' where ' ~ adapter.quote(column.name) ~ ' is null) as ' ~ string_type ~ ') as after_nulls').rows[0] %}
          {% do results.append({'check': kind ~ ':' ~ column.name, 'partition': partition.value,
              'passed': (counted['after_nulls'] | int) <= (counted['before_nulls'] | int),
              'observed': counted['after_nulls'] ~ ' nulls', 'expected': '<= ' ~ counted['before_nulls'] ~ ' nulls (as now)',
              'detail': column.name}) %}
        {% endfor %}
      {% elif kind == 'total_matches_control' %}
        {% set column = dbt_backfill._columns(stage, [setting.column], 'total_matches_control column')[0] %}
        {% set control = dbt_backfill._strip_statement_end(control_query | replace('{partition}', literal)) %}
        {% set tolerance = (setting.get('tolerance', 0) | string) %}
        {% do dbt_backfill._step('evaluating the control query of total_matches_control on partition ' ~ partition.value,
            'the control query of meta.backfill.checks total_matches_control failed (see the error below). Stages are left '
            ~ 'in place; no packet was written and the target is unchanged.') %}
        {% set row = dbt_backfill._execute('with observed as (select coalesce(sum(' ~ adapter.quote(column.name) ~ '), 0) as total from '
            ~ stage ~ '), control as (' ~ control ~ ') select cast(observed.total as ' ~ string_type ~ ') as observed, cast((select * from control) as '
            ~ string_type ~ ') as expected, case when abs(observed.total - coalesce((select * from control), 0)) <= cast('
            ~ dbt_backfill._sql_literal(tolerance) ~ ' as decimal(38, 9)) then 1 else 0 end as passed from observed').rows[0] %}
        {% do results.append({'check': kind ~ ':' ~ column.name, 'partition': partition.value, 'passed': row['passed'] == 1,
            'observed': row['observed'] | string, 'expected': (row['expected'] | string) ~ ' +/- ' ~ tolerance,
            'detail': 'control query'}) %}
      {% endif %}
    {% endfor %}
  {% endfor %}
  {{ return(results) }}
{% endmacro %}

{# A control query with dbt's {{ source() }} / {{ ref() }} (or any Jinja), rendered the way dbt renders a model's
   SQL; a query without Jinja is used as written (its braces, `{partition}` among them, are not Jinja). #}
{% macro _rendered_control_query(query) %}
  {% if '{{' not in query and '{%' not in query %}{{ return(query) }}{% endif %}
  {% do dbt_backfill._step('rendering the control query of total_matches_control', 'the control query of '
      ~ 'meta.backfill.checks total_matches_control could not be rendered (see the error below: a source or model dbt '
      ~ 'does not know, say). No packet was written; the target is unchanged.') %}
  {{ return(render(query)) }}
{% endmacro %}
