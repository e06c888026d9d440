{# Downstream of fct_trips, partitioned the same way: what `apply --cascade` rebuilds behind the root. #}
{{ config(materialized='incremental', incremental_strategy='append',
          partition_by=(['trip_date'] if target.type == 'spark' else none),
          file_format=(var('spark_file_format', 'parquet') if target.type == 'spark' else none)) }}

select trip_date, count(*) as trips, {{ fares_total("fare") }} as fares
from {{ ref('fct_trips') }}
{% if is_incremental() %}
where trip_date > (select max(trip_date) from {{ this }})
{% endif %}
group by trip_date
