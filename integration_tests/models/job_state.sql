{{ config(materialized='table') }}

-- The scheduled job's bookkeeping: the last day it loaded. A backfill must leave it where it was.
select cast('2026-03-04' as date) as last_loaded_day, 'fct_trips_variant' as job
