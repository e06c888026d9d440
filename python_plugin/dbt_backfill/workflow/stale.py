"""stale: the published partitions of a model that no longer equal what its SQL builds now from its current inputs.
The package's find_stale operation decides it all (which partitions to compare, from what changed in the inputs since
something last vouched for each, and the comparison by fingerprint); this reads its result."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from dbt_backfill.dbt_runner import DbtRunner


@dataclass(frozen=True)
class Side:
    rows: int
    sha256: str

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Side:
        return cls(rows=int(data["row_count"]), sha256=str(data["sha256"]))


@dataclass(frozen=True)
class StalePartition:
    value: str
    kind: str  # differs | missing (the target holds no row of it; the model builds some)
    target: Side
    model: Side
    added: int
    removed: int
    changed: int
    why: tuple[str, ...]  # why it was compared: the inputs that changed in its window, or nothing vouching for it

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> StalePartition:
        return cls(
            value=str(data["value"]),
            kind=str(data["kind"]),
            target=Side.from_dict(data["target"]),
            model=Side.from_dict(data["model"]),
            added=int(data["added"]),
            removed=int(data["removed"]),
            changed=int(data["changed"]),
            why=tuple(str(w) for w in data["why"]),
        )


@dataclass(frozen=True)
class StaleScan:
    model: str
    target: str
    read_at: str
    looked_at: str  # how the partitions were chosen, in words
    scanned: int  # partitions looked at
    compared: int  # of them, compared with the model's build
    stale: tuple[StalePartition, ...]
    ranges: str  # the stale partitions as plan takes them
    repair: Mapping[str, str] | None  # {cli, pure_dbt, partitions}: the plan that repairs them
    windows: str | None  # what backs the input windows it followed changes through, in words (None: read whole)
    notes: tuple[str, ...]
    document: Mapping[str, Any]  # all of it, as the operation emitted it (--json)

    @classmethod
    def from_result(cls, result: Mapping[str, Any]) -> StaleScan:
        """The scan from the `stale` result find_stale emits (what `--json` prints)."""
        return cls(
            model=result["model"],
            target=result["target"],
            read_at=result["read_at"],
            looked_at=result["scope"]["how"],
            scanned=int(result["scope"]["count"]),
            compared=int(result["compared"]),
            stale=tuple(StalePartition.from_dict(s) for s in result["stale"]),
            ranges=result["ranges"],
            repair=result["repair"],
            windows=((result.get("windows") or {}).get("proof") or {}).get("said"),
            notes=tuple(result["notes"]),
            document=result,
        )

    @property
    def chosen_by(self) -> str:
        """How a plan of these partitions chose them, for its scope section."""
        return (
            f"the stale scan of {self.read_at[:19]} UTC found {len(self.stale)} of {self.scanned} partition(s) "
            f"({self.looked_at}) differing from what the model builds now ({self.compared} compared with the model)"
        )


def find_stale(runner: DbtRunner, model: str, partitions: str | None = None, since: str | None = None) -> StaleScan:
    """`partitions`: values and inclusive ranges, as plan takes them (None: every partition from the target's first
    to its last). `since`: for this scan, partitions no later scan or recorded write vouches for are taken as right
    at that instant. Reads only, but records one `stale_scan` row in the audit trail."""
    args: dict[str, Any] = {"model": model, "partitions": partitions, "since": since, "fail_when_stale": False}
    if runner.from_a_package(model):
        # a run-operation renders the model with the root project's vars only: a package's model may read vars its
        # own dbt_project.yml declares, which dbt's compile resolves (the same SQL where both can render it)
        args["model_sql"] = runner.compile_model(model).compiled_sql
    return StaleScan.from_result(runner.run_operation("find_stale", args).first("stale"))
