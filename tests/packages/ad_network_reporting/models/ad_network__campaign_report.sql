{{ config(
    materialized='incremental',
    incremental_strategy='delete+insert',
    unique_key=['campaign_id', 'date_day'],
) }}

{#- The ad network restates its reports for weeks: every run re-merges the last N days (the lookback) -#}
{%- set lookback_start -%}
    (select {{ dbt.dateadd('day', -1 * var('ad_network__lookback_days'), 'max(date_day)') }} from {{ this }})
{%- endset %}

with impressions as (
    select * from {{ ref('stg_ad_network__impressions') }}
    {% if is_incremental() %}
    where date_day >= {{ lookback_start }}
    {% endif %}
),

conversions as (
    select * from {{ ref('stg_ad_network__conversions') }}
    {% if is_incremental() %}
    where date_day >= {{ lookback_start }}
    {% endif %}
),

campaign_days as (
    select
        i.account_id,
        i.campaign_id,
        i.date_day,
        {{ sum_metrics('i') }}
        max(i.synced_at) as synced_at
    from impressions as i
    group by i.account_id, i.campaign_id, i.date_day
),

conversion_days as (
    select
        c.campaign_id,
        c.date_day,
        {{ pivot_goals('c') }},
        max(c.synced_at) as synced_at
    from conversions as c
    group by c.campaign_id, c.date_day
)

select
    d.account_id,
    d.campaign_id,
    d.date_day,
    {%- for metric in ad_network_metrics() %}
    d.{{ metric.name }},
    {%- endfor %}
    {%- for goal in conversion_goals() %}
    coalesce(v.{{ goal_column(goal, 'conversions') }}, 0) as {{ goal_column(goal, 'conversions') }},
    coalesce(v.{{ goal_column(goal, 'value') }}, 0) as {{ goal_column(goal, 'value') }},
    {%- endfor %}
    -- when the account was last synced: one value for the whole account, moved by every sync
    max(case when v.synced_at > d.synced_at then v.synced_at else d.synced_at end)
        over (partition by d.account_id) as last_updated
from campaign_days as d
left join conversion_days as v
    on v.campaign_id = d.campaign_id and v.date_day = d.date_day
