{# The same rows through dbt's own microbatch strategy: the baseline of P3
   (dbt run -s events_microbatch --event-time-start D --event-time-end D+K). #}
{{ config(materialized='incremental', incremental_strategy='microbatch', event_time='event_ts', batch_size='day', unique_key='event_id',
          begin='2026-01-01', alias=var('microbatch_alias', 'events_microbatch')) }}

select event_id, day, event_ts, customer, amount, status, updated_at
from {{ source('bench_raw', 'events') }}
