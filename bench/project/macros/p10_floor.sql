{#
  P10's floor (issue 57): what a repair of many partitions cannot spend less than on DuckDB through dbt, were every
  check dropped. The plan's part: the model's rows built twice (a plan proves its build reproducible by building it
  twice), each once, as one statement over every day. The apply's part: each day replaced in a transaction of its
  own (delete, insert, commit: the statements dbt-backfill's apply sends through the same _execute and _commit),
  with nothing checked, backed up or recorded. bench/run.py times each invocation, start-up included.
#}
{% macro bench_bare_builds(source, into) %}
  {% for build in ['a', 'b'] %}
    {% do dbt_backfill._execute('create or replace table ' ~ into ~ '_' ~ build ~ ' as '
        ~ 'with ranked as (select *, row_number() over (partition by event_id order by updated_at desc) as version_rank '
        ~ 'from ' ~ source ~ ') select event_id, day, event_ts, customer, amount, status, updated_at from ranked '
        ~ 'where version_rank = 1', fetch=false) %}
  {% endfor %}
  {% do dbt_backfill._commit() %}
{% endmacro %}

{% macro bench_bare_replacement(target, stage, days) %}
  {% for day in days %}
    {% do dbt_backfill._execute('delete from ' ~ target ~ " where day = date '" ~ day ~ "'", fetch=false) %}
    {% do dbt_backfill._execute('insert into ' ~ target ~ ' select * from ' ~ stage ~ " where day = date '" ~ day ~ "'",
                                fetch=false) %}
    {% do dbt_backfill._commit() %}
  {% endfor %}
{% endmacro %}
