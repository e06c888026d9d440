{# A vendor package's staging model: ephemeral, so it has no relation; the model below reads it as a CTE. #}
{{ config(materialized='ephemeral') }}

select event_id, trip_id, trip_date, fare, status, updated_at
from {{ source('raw', 'trip_events') }}
