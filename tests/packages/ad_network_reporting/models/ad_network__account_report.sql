{{ config(
    materialized='incremental',
    incremental_strategy='delete+insert',
    unique_key=['account_id', 'date_day'],
) }}

select
    r.account_id,
    r.date_day,
    count(*) as campaigns,
    {{ sum_metrics('r') }}
    {%- for goal in conversion_goals() %}
    cast(sum(r.{{ goal_column(goal, 'conversions') }}) as bigint) as {{ goal_column(goal, 'conversions') }},
    cast(sum(r.{{ goal_column(goal, 'value') }}) as double precision) as {{ goal_column(goal, 'value') }}{{ ',' if not loop.last }}
    {%- endfor %}
from {{ ref('ad_network__campaign_report') }} as r
{% if is_incremental() %}
where r.date_day >= (select {{ dbt.dateadd('day', -1 * var('ad_network__lookback_days'), 'max(date_day)') }} from {{ this }})
{% endif %}
group by r.account_id, r.date_day
