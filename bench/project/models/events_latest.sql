{# The dedup shape of most event models (fct_trips, vendor packages' event models): one row per event_id, its
   newest version (updated_at) wins. Every version of an event keeps its event_ts, the source's event_time, so a
   day's rows need only that day's events: the default input window. Indexed as a PostgreSQL user would index it:
   the partition column and the business key (P8 publishes it without: --vars '{latest_indexes: []}'). The measures
   of P3, P6, P7 and P8. #}
{{ config(materialized='incremental', incremental_strategy='append', alias=var('latest_alias', 'events_latest'),
          indexes=var('latest_indexes', [{'columns': ['day']}, {'columns': ['event_id']}]),
          post_hook=([var('latest_post_hook')] if var('latest_post_hook', '') else [])) }}

with ranked as (
    select *, row_number() over (partition by event_id order by updated_at desc) as version_rank
    from {{ source('bench_raw', 'events') }}
    {% if is_incremental() %}
    where day > (select max(day) from {{ this }})
    {% endif %}
)
select event_id, day, event_ts, customer, amount, status, updated_at
from ranked
where version_rank = 1
