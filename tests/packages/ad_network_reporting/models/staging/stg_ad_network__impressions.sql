select
    account_id,
    campaign_id,
    date_day,
    device,
    cast(spend as double precision) as spend,
    clicks,
    impressions,
    synced_at
from {{ source('ad_network', 'impressions_report') }}
