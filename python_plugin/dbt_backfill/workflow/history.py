"""history: the audit trail of a model or a run, as backfill_history reads it."""

from __future__ import annotations

from typing import Any

from dbt_backfill.dbt_runner import DbtRunner


def history(
    runner: DbtRunner, model: str | None, run_id: str | None = None, since: str | None = None, limit: int | str = 1000
) -> dict[str, Any]:
    """The audit trail as backfill_history reads it: {audits, looked_in, events}. The audit tables are found as
    every writer finds them (beside each model's relation, or the var dbt_backfill_audit_schema). `limit` as typed:
    backfill_history checks it, for both paths."""
    invocation = runner.run_operation(
        "backfill_history", {"model": model, "run_id": run_id, "since": since, "limit": limit}
    )
    return invocation.first("history")
