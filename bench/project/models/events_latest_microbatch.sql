{# events_latest through dbt's own microbatch strategy: the baseline of P3. The same dedup, each day's batch
   reading only that day's events (the source's event_time), as our windowed builds read them: every version of an
   event keeps its event_ts, so the newest version of a day's events is within the day's batch.
   (dbt run -s events_latest_microbatch --event-time-start D --event-time-end D+K) #}
{{ config(materialized='incremental', incremental_strategy='microbatch', event_time='event_ts', batch_size='day', unique_key='event_id',
          begin='2026-01-01', alias=var('latest_microbatch_alias', 'events_latest_microbatch')) }}

with ranked as (
    select *, row_number() over (partition by event_id order by updated_at desc) as version_rank
    from {{ source('bench_raw', 'events') }}
)
select event_id, day, event_ts, customer, amount, status, updated_at
from ranked
where version_rank = 1
