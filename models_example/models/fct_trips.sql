{{ config(materialized='incremental', incremental_strategy='append') }}

{{ latest_trip_versions(source('raw', 'trip_events')) }}
