{#
  The shape of a vendor package's event model (issue 19): a custom schema (`finance`, so dbt builds it in
  `<target schema>_finance`), an alias, an ephemeral staging model upstream, newest version per key by row_number().
#}
{{ config(materialized='incremental', incremental_strategy='append', schema='finance', alias='vendor_trips_by_day',
          partition_by=(['trip_date'] if target.type == 'spark' else none),
          file_format=(var('spark_file_format', 'parquet') if target.type == 'spark' else none)) }}

with ranked as (
    select trip_id, trip_date, fare, status, updated_at,
           row_number() over (partition by trip_id order by updated_at desc, event_id desc) as version_rank
    from {{ ref('stg_vendor__trip_events') }}
    {% if is_incremental() %}
    where trip_date > (select max(trip_date) from {{ this }})
    {% endif %}
)
select trip_id, trip_date, fare, status, updated_at
from ranked
where version_rank = 1
