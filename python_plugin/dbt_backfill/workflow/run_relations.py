"""The relations a run created in the stage schema, as the audit trail records them: what clean drops, and what a
failed plan leaves or drops."""

from __future__ import annotations

from dataclasses import dataclass

from dbt_backfill.dbt_runner import DbtRunner
from dbt_backfill.errors import BackfillError, BackfillRefused, restated
from dbt_backfill.workflow.audit_trail import who_runs


@dataclass(frozen=True)
class FoundRelation:
    run_id: str
    model: str
    relation: str
    kind: str  # build a | build b | backup | stages
    action: str  # drop (listed only) | dropped | keep
    reason: str | None  # why it is kept

    def to_dict(self) -> dict:
        return {
            "run_id": self.run_id,
            "model": self.model,
            "relation": self.relation,
            "kind": self.kind,
            "action": self.action,
            "reason": self.reason,
        }


def clean_relations(
    runner: DbtRunner,
    run_id: str | None = None,
    older_than_hours: float = 24.0,
    drop: bool = False,
    drop_backups: bool = False,
    by: str | None = None,
) -> list[FoundRelation]:
    """The relations of one run (`run_id`) or of every run (orphans) that the audit trail says dbt-backfill created,
    each with what is (or, with drop=False, would be) done to it; dropped with drop=True."""
    try:
        invocation = runner.run_operation(
            "clean_orphans",
            {
                "run_id": run_id,
                "older_than_hours": older_than_hours,
                "drop": drop,
                "drop_backups": drop_backups,
                "cleaned_by": who_runs(by),
            },
        )
    except BackfillError as failure:
        if drop and run_id is not None:
            raise with_what_is_left(runner, run_id, failure) from None
        raise
    return [FoundRelation(**item) for item in invocation.first("orphans")["relations"]]


def with_what_is_left(runner: DbtRunner, run_id: str, failure: BackfillError) -> BackfillError | BackfillRefused:
    """A drop the database refused (a view someone built on a stage, a lost connection): what of the run still
    exists, read in an invocation of its own — not what the code believes the failed statement undid."""
    try:
        left = [f.relation for f in clean_relations(runner, run_id=run_id, drop=False)]
        read = (
            f"Read afterwards, run {run_id} still has {len(left)} relation(s): {', '.join(left)}."
            if left
            else f"Read afterwards, run {run_id} has no relation left."
        )
    except (BackfillError, BackfillRefused):
        read = (
            f"What is left could not be read; `dbt-backfill clean --run {run_id}` lists it when the database answers."
        )
    first, _, rest = str(failure).partition("\n")
    return restated(failure, f"{first} {read}\n{rest}".rstrip())
