select
    account_id,
    campaign_id,
    date_day,
    goal,
    conversions,
    cast(value as double precision) as value,
    synced_at
from {{ source('ad_network', 'conversions_report') }}
