{{ config(materialized='view') }}

-- The unsafe source: updated_at is a value that changes on every read.
select event_id, trip_id, trip_date, fare, status, {{ volatile_timestamp() }} as updated_at
from {{ source('raw', 'trip_events') }}
