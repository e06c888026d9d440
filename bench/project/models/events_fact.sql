{# The benchmark's published table: one row per event, partitioned by day. `fact_alias` and `events_table` let one
   model stand for several tables of different sizes. #}
{{ config(materialized='incremental', incremental_strategy='append', alias=var('fact_alias', 'events_fact'),
          post_hook="create index if not exists {{ this.identifier }}_day on {{ this }} (day)") }}

select event_id, day, event_ts, customer, amount, status, updated_at
from {{ source('bench_raw', 'events') }}
{% if is_incremental() %}
where day > (select max(day) from {{ this }})
{% endif %}
