{{ config(materialized='incremental', incremental_strategy='append') }}

{{ latest_trip_versions(ref('trip_events_volatile')) }}
