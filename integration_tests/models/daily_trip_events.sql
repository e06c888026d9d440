{#
  Events and fares per day, built by dbt's microbatch (one batch a day, lookback 2): the model with a lookback of
  the input-window tests (dbt-postgres's microbatch merges by unique_key; DuckDB's deletes and inserts by batch).
  Disabled unless --vars "{with_microbatch: true}": a `dbt run` of the whole project would otherwise build every
  day from `begin` to today. The source is read by batch only where it declares event_time
  (--vars "{trip_events_event_time: trip_date}").
#}
{{ config(enabled=var('with_microbatch', false), materialized='incremental', incremental_strategy='microbatch',
          event_time='trip_date', begin='2026-02-27', batch_size='day', lookback=2,
          unique_key=('trip_date' if target.type == 'postgres' else none)) }}

select trip_date, count(*) as events, sum(fare) as fares
from {{ source('raw', 'trip_events') }}
group by trip_date
