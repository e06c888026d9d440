"""What a backfill covers: the model's data contract (meta.backfill), overridable on the command line."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from dbt_backfill.errors import BackfillError

LIST_FIELDS = ("business_key", "order_by", "additive", "exclude_columns")
WATERMARK_KINDS = ("column", "relation", "query")
KNOWN_FIELDS = {
    "partition_by",
    "protected",
    "watermark",
    "stage_schema",
    "checks",
    "cost_warning",
    "depends_on_window",
    "approval_ttl",
    "input_window",
    "window_proof_max_age",
    *LIST_FIELDS,
}
WINDOW_SIDES = ("before", "after")


def _as_names(value: Any, field: str, model: str) -> tuple[str, ...]:
    if value is None:
        return ()
    if isinstance(value, str):
        value = [part.strip() for part in value.split(",")]
    if not isinstance(value, (list, tuple)) or not all(isinstance(v, str) and v for v in value):
        raise BackfillError(
            f"meta.backfill.{field} of {model} must be a column name or a list of column names, "
            f"not {value!r}. Nothing was changed."
        )
    return tuple(value)


ORDER_DIRECTIONS = ("asc", "desc")


def _as_order(value: Any, model: str) -> tuple[str, ...]:
    """order_by: the order in which the model ranks the versions of a key (the first wins), each entry a column,
    optionally followed by asc or desc: `updated_at desc` keeps the newest, `updated_at asc` the oldest. Kept as
    declared, with the direction in lower case; an entry without one says nothing about which version wins."""
    entries = []
    for entry in _as_names(value, "order_by", model):
        words = entry.split()
        if not 1 <= len(words) <= 2 or (len(words) == 2 and words[1].lower() not in ORDER_DIRECTIONS):
            raise BackfillError(
                f"meta.backfill.order_by of {model}: {entry!r} is not a column optionally followed by "
                f"asc or desc (e.g. `updated_at desc`: the newest version of a key wins). Nothing was "
                f"changed."
            )
        entries.append(" ".join([words[0], *[w.lower() for w in words[1:]]]))
    return tuple(entries)


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

    @classmethod
    def resolve(cls, model: str, meta: Mapping[str, Any] | None, overrides: Mapping[str, Any]) -> BackfillSpec:
        """meta.backfill of the model, with command-line overrides (None = not given) laid on top."""
        if meta is not None and not isinstance(meta, Mapping):
            raise BackfillError(f"meta.backfill of {model} must be a mapping. Nothing was changed.")
        merged = dict(meta or {})
        unknown = sorted(set(merged) - KNOWN_FIELDS)
        if unknown:
            raise BackfillError(
                f"meta.backfill of {model} has unknown key(s) {', '.join(unknown)}; known keys are "
                f"{', '.join(sorted(KNOWN_FIELDS))}. Nothing was changed."
            )
        merged.update({k: v for k, v in overrides.items() if v is not None})
        if not merged:
            raise BackfillError(
                f"{model} has no meta.backfill: declare at least partition_by and business_key in the model's "
                f"config (meta: {{backfill: {{partition_by: ..., business_key: [...]}}}}), or pass --partition-by "
                f"and --business-key. Nothing was changed."
            )
        partition_by = merged.get("partition_by")
        if not isinstance(partition_by, str) or not partition_by:
            raise BackfillError(
                f"{model}: meta.backfill.partition_by (or --partition-by) must name one column. Nothing was changed."
            )
        business_key = _as_names(merged.get("business_key"), "business_key", model)
        if not business_key:
            raise BackfillError(
                f"{model}: meta.backfill.business_key (or --business-key) must name the column(s) "
                f"that identify a row. Nothing was changed."
            )
        watermark = merged.get("watermark")
        if isinstance(watermark, str):  # --watermark-column, or a bare column name in meta
            watermark = {"column": watermark}
        if watermark is not None and (
            not isinstance(watermark, Mapping)
            or len(watermark) != 1
            or next(iter(watermark)) not in WATERMARK_KINDS
            or not isinstance(next(iter(watermark.values())), str)
        ):
            raise BackfillError(
                f"meta.backfill.watermark of {model} must be one of {{column: <col>}}, "
                f"{{relation: <schema.table>}} or {{query: <sql>}}, not {watermark!r}. Nothing was changed."
            )
        checks = merged.get("checks") or []
        if not isinstance(checks, (list, tuple)) or not all(isinstance(c, Mapping) and len(c) == 1 for c in checks):
            raise BackfillError(
                f"meta.backfill.checks of {model} must be a list of one-key mappings (e.g. "
                f"- row_count_change_pct: 10), not {checks!r}. Nothing was changed."
            )
        cost_warning = merged.get("cost_warning") or {}
        if (
            not isinstance(cost_warning, Mapping)
            or set(cost_warning) - {"rows", "bytes"}
            or not all(isinstance(v, int) and v > 0 for v in cost_warning.values())
        ):
            raise BackfillError(
                f"meta.backfill.cost_warning of {model} must be {{rows: N, bytes: N}} with positive "
                f"integers, not {cost_warning!r}. Nothing was changed."
            )
        window = merged.get("depends_on_window") or {}
        if not _is_window(window):
            raise BackfillError(
                f"meta.backfill.depends_on_window of {model} must be {{before: N, after: N}}: how many "
                f"partitions before and after a changed partition of its parents its own rows depend "
                f"on (a trailing 28-day metric: {{after: 27}}), each a whole number >= 0, not "
                f"{window!r}. Nothing was changed."
            )
        input_window = merged.get("input_window")
        if input_window is not None and not _is_window(input_window):
            raise BackfillError(
                f"meta.backfill.input_window of {model} must be {{before: N, after: N}}: how many days "
                f"before and after a partition its inputs' event_time may lie for the partition's rows "
                f"(corrections that arrive up to 30 days later: {{after: 30}}), each a whole number "
                f">= 0, not {input_window!r}. Nothing was changed."
            )
        return cls(
            partition_by=partition_by,
            business_key=business_key,
            order_by=_as_order(merged.get("order_by"), model),
            additive=_as_names(merged.get("additive"), "additive", model),
            exclude_columns=_as_names(merged.get("exclude_columns"), "exclude_columns", model),
            protected=bool(merged.get("protected", False)),
            stage_schema=merged.get("stage_schema"),
            watermark=dict(watermark) if watermark else None,
            checks=tuple(dict(c) for c in checks),
            cost_warning=dict(cost_warning),
            depends_on_window={side: int(window.get(side, 0)) for side in WINDOW_SIDES} if window else {},
            approval_ttl=merged.get("approval_ttl"),
            input_window=(
                {side: int(input_window.get(side, 0)) for side in WINDOW_SIDES} if input_window is not None else None
            ),
            window_proof_max_age=merged.get("window_proof_max_age"),
        )


def _is_window(window: Any) -> bool:
    """{before: N, after: N}, either side optional, each a whole number >= 0."""
    return (
        isinstance(window, Mapping)
        and not set(window) - set(WINDOW_SIDES)
        and all(isinstance(v, int) and not isinstance(v, bool) and v >= 0 for v in window.values())
    )
