"""What a backfill covers: the model's data contract, meta.backfill, as the package read it (macros/plan/
_backfill_spec.sql, the one reading both paths use, overrides included): typed here for the plan and its packet."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class BackfillSpec:
    partition_by: str
    business_key: tuple[str, ...]
    order_by: tuple[str, ...] = ()
    additive: tuple[str, ...] = ()
    exclude_columns: tuple[str, ...] = ()
    protected: bool = False
    stage_schema: str | None = None
    watermark: Mapping[str, str] | None = None
    checks: tuple[Mapping[str, Any], ...] = ()  # reconciliation gates; their kinds are checked by the package
    cost_warning: Mapping[str, int] = field(default_factory=dict)  # {rows, bytes} the builds may read unwarned
    # how far a change of a parent's partition reaches into this model's partitions (a trailing 28-day metric:
    # {after: 27}); what apply --cascade rebuilds behind its parents, comparing the rest with a full build
    depends_on_window: Mapping[str, int] = field(default_factory=dict)
    # how long an approval holds after the plan (days, or "<N>d"/"<N>h"; default 7 days): checked by the package,
    # which states the deadline in the packet (expires_at) and refuses an apply after it
    approval_ttl: Any = None
    # how many days before and after a partition's own span the inputs with dbt's `event_time` are read while its
    # stages are built ({after: 30}: corrections arrive up to 30 days after the event); None: dbt's lookback of a
    # microbatch model, else the partition alone. Every plan checks it through a widened window; the proof over the
    # whole history is recorded and reused for the same code (docs/DECISIONS.md, row 82).
    input_window: Mapping[str, int] | None = None
    # how many days a recorded whole-history proof of the windows is relied on (default 30): checked by the package
    window_proof_max_age: Any = None

    def operation_args(self) -> dict[str, Any]:
        """The spec as the package's plan_stages operation takes it."""
        return {
            "partition_by": self.partition_by,
            "business_key": list(self.business_key),
            "order_by": list(self.order_by),
            "additive": list(self.additive),
            "exclude_columns": list(self.exclude_columns),
            "stage_schema": self.stage_schema,
            "watermark": dict(self.watermark) if self.watermark else None,
            "checks": [dict(c) for c in self.checks],
            "cost_warning": dict(self.cost_warning),
            "approval_ttl": self.approval_ttl,
            "input_window": dict(self.input_window) if self.input_window is not None else None,
            "window_proof_max_age": self.window_proof_max_age,
        }

    @classmethod
    def from_resolved(cls, spec: Mapping[str, Any]) -> BackfillSpec:
        """The spec as resolve_plan returns it: checked and normalized by the package already."""

        def names(key: str) -> tuple[str, ...]:
            value: Sequence[str] = spec.get(key) or ()
            return tuple(value)

        return cls(
            partition_by=spec["partition_by"],
            business_key=names("business_key"),
            order_by=names("order_by"),
            additive=names("additive"),
            exclude_columns=names("exclude_columns"),
            protected=bool(spec.get("protected")),
            stage_schema=spec.get("stage_schema"),
            watermark=spec.get("watermark"),
            checks=tuple(spec.get("checks") or ()),
            cost_warning=dict(spec.get("cost_warning") or {}),
            depends_on_window=dict(spec.get("depends_on_window") or {}),
            approval_ttl=spec.get("approval_ttl"),
            input_window=spec.get("input_window"),
            window_proof_max_age=spec.get("window_proof_max_age"),
        )
