{# One row per trip from a stream of trip events: the newest version wins (updated_at, then event_id). #}
{% macro latest_trip_versions(events) %}
with ranked as (
    select
        trip_id,
        trip_date,
        fare,
        status,
        updated_at,
        row_number() over (partition by trip_id order by updated_at desc, event_id desc) as version_rank
    from {{ events }}
    {% if is_incremental() %}
    -- the live job moves forward only: days after the newest published day. Corrections to days already
    -- published never reach the table this way; that is what dbt-backfill repairs.
    where trip_date > (select max(trip_date) from {{ this }})
    {% endif %}
)
select trip_id, trip_date, fare, status, updated_at
from ranked
where version_rank = 1
{% endmacro %}
