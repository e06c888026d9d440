{#
  fct_trips that the tests bend with --vars, to produce each refusal on demand. Published with no vars (then it
  equals fct_trips); planned with:
    random_fare: true      a non-deterministic transform (random())
    now_updated: true      a non-deterministic transform (now())
    null_key_trip: <id>    that trip's key becomes NULL
    move_trip: <id>        that trip moves to 2026-03-02 (a key that changes partition)
    text_key: true         the business key is text (typed otherwise than the published table's)
    padded_key: true       with text_key, the text is zero-padded ('01005'): another text, the same integer
    key_expr: <sql>        the business key is this expression (of the source's trip_id)
    status_expr: <sql>     the status is this expression (of the source's status)
    drop_day: <date>       the model produces nothing for that day
    mixed_case_fare: true  the fare column is named "Amount", quoted (a mixed-case name)
    local_day: true        a trip's day is the day of updated_at in the session's time zone (updated_at::date),
                           as a model written for one zone derives it
    text_day: true         the day is text in a varchar(10) column (a type whose cast truncates)
    variant_materialized: <m>  the model is materialized as <m> (view, ephemeral, table) for the plan's check
    events_without_database: true   the source named without its database (`"raw"."trip_events"`): not as dbt
                           renders it, so an input window cannot be applied to it
    variant_post_hook: <sql>   a post-hook, run in the publication's own transaction (test_plan_cost keeps
                           autovacuum off the table from the moment it exists)
    variant_alias: <name>  the model's relation is named <name> (a var that decides where it is published)
#}
{{ config(materialized=var('variant_materialized', 'incremental'), incremental_strategy='append',
          alias=var('variant_alias', none),
          post_hook=([var('variant_post_hook')] if var('variant_post_hook', '') else []),
          partition_by=(['trip_date'] if target.type == 'spark' else none),
          file_format=(var('spark_file_format', 'parquet') if target.type == 'spark' else none)) }}

{% set events = source('raw', 'trip_events') %}
{% if var('events_without_database', '') %}{% set events = events.include(database=false) %}{% endif %}
with latest as (
    {{ latest_trip_versions(events) }}
)
select
    {% if var('null_key_trip', '') %}
    case when trip_id = {{ var('null_key_trip') }} then null else trip_id end as trip_id,
    {% elif var('key_expr', '') %}
    {{ var('key_expr') }} as trip_id,
    {% elif var('text_key', '') and var('padded_key', '') %}
    {{ dbt.concat(["'0'", "cast(trip_id as " ~ dbt.type_string() ~ ")"]) }} as trip_id,
    {% elif var('text_key', '') %}
    cast(trip_id as {{ dbt.type_string() }}) as trip_id,
    {% else %}
    trip_id,
    {% endif %}
    {% if var('local_day', '') %}
    cast(updated_at as date) as trip_date,
    {% elif var('text_day', '') %}
    cast(cast(trip_date as {{ dbt.type_string() }}) as varchar(10)) as trip_date,
    {% elif var('move_trip', '') %}
    case when trip_id = {{ var('move_trip') }} then cast('2026-03-02' as date) else trip_date end as trip_date,
    {% else %}
    trip_date,
    {% endif %}
    fare {% if var('random_fare', '') %} + cast(floor(random() * 100) as integer){% endif %}
        as {{ adapter.quote('Amount') if var('mixed_case_fare', '') else 'fare' }},
    {{ var('status_expr', 'status') }} as status,
    {% if var('now_updated', '') %}now(){% else %}updated_at{% endif %} as updated_at
from latest
{% if var('drop_day', '') %}
where trip_date <> cast('{{ var("drop_day") }}' as date)
{% endif %}
