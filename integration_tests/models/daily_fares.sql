{# Downstream of fct_trips, partitioned the same way: what `apply --cascade` rebuilds behind the root. #}
{{ config(materialized='incremental', incremental_strategy='append') }}

select trip_date, count(*) as trips, sum(fare) as fares
from {{ ref('fct_trips') }}
{% if is_incremental() %}
where trip_date > (select max(trip_date) from {{ this }})
{% endif %}
group by trip_date
