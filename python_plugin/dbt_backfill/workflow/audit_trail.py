"""The audit trail as the workflow writes it from Python: refusals decided outside the database (and those that
rolled a transaction back, whose audit row went with it)."""

from __future__ import annotations

import getpass
from typing import Callable, TypeVar

from dbt_backfill.dbt_runner import DbtRunner
from dbt_backfill.errors import BackfillError, BackfillRefused
from dbt_backfill.packet import RelationRef

T = TypeVar("T")


def who_runs(by: str | None) -> str:
    """Who ran a command, as its audit row records it: the name given with --by, else the OS user (all that is
    known then: which account ran the process)."""
    by = (by or "").strip()
    return by or f"OS user {getpass.getuser()}"


def record_refusal(
    runner: DbtRunner, target: RelationRef, run_id: str | None, model: str, refused: BackfillRefused
) -> None:
    """Best effort: a refusal must reach the user even when it cannot reach the audit table (a locked DuckDB
    file, a lost connection)."""
    try:
        runner.run_operation(
            "audit_event",
            {
                "target": target.to_dict(),
                "event": "refused",
                "run_id": run_id,
                "fields": {"model": model, "outcome": refused.reason, "detail": str(refused)},
            },
        )
    except (BackfillError, BackfillRefused):
        pass


def record_if_refused(
    runner: DbtRunner, target: RelationRef, run_id: str | None, model: str, failure: BaseException
) -> None:
    """A refusal that stopped a command after it may have written, recorded before the state is read and raised."""
    if isinstance(failure, BackfillRefused):
        record_refusal(runner, target, run_id, model, failure)


def audited(runner: DbtRunner, target: RelationRef, run_id: str | None, model: str, action: Callable[[], T]) -> T:
    """Run `action`; a refusal is recorded in the audit trail, then raised as it was."""
    try:
        return action()
    except BackfillRefused as refused:
        record_refusal(runner, target, run_id, model, refused)
        raise
