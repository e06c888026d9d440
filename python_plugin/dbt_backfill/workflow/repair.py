"""plan --stale: the plan of exactly what the stale scan finds now. Built of two verbs (stale, then plan), so it sits
above them with cascade."""

from __future__ import annotations

from dataclasses import replace

from dbt_backfill.dbt_runner import DbtRunner
from dbt_backfill.workflow import plan as plan_
from dbt_backfill.workflow.stale import StaleScan, find_stale


def plan_stale(
    runner: DbtRunner, request: plan_.PlanRequest, since: str | None = None
) -> StaleScan | plan_.PlanResult | plan_.NothingToChange:
    """Scan the model (`since` as `stale --since`), then plan the partitions found stale, the plan's scope saying how
    they were chosen. Nothing stale: the scan itself, and nothing is planned."""
    scan = find_stale(runner, request.model, since=since)
    if not scan.stale:
        return scan
    return plan_.plan(runner, replace(request, partitions=scan.ranges, chosen_by=scan.chosen_by))
