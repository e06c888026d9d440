"""apply --cascade: apply the root packet, then rebuild the models downstream of it, in the order its plan listed
them, each behind its own gates.

The root packet names its downstream models (topological order, with their partition mapping) and is approved
with that list in it, so the approval covers the cascade on one condition: each downstream model's own plan must
come out SAFE TO RUN — two equal builds, its reconciliation gates passed, nothing to restructure. Such a plan is
approved in the root approver's name ("<name> (cascade of <run>)") and applied, if it still compiles to the SQL
the root's packet lists (the sha256 of its compiled SQL, compiled with the root and bound by the root's approval:
an edit of its file, of a macro it calls or of a var it reads changes it), its SQL file and its meta.backfill are
still the ones listed (dbt_runner.code_binding); anything else stops the cascade
with the downstream packet left for a person to review. A model whose partitions do not map onto the root's is
never rebuilt automatically: it is reported.

What a downstream model rebuilds is its reach: the partitions its parents' repair changed (a committed partition
whose approved rows differ from its rows before), widened by the window its rows depend on (`reach`, from its
meta.backfill.depends_on_window: a trailing 28-day metric reaches 27 days after each changed day), where its table
or a full build of it holds them (partitions_in_reach). Everything beyond the reach is probed in the same
statement: the model's SQL is evaluated once and compared with its table, and a partition outside the reach that
differs from that build stops the cascade before anything of the model is planned, naming it. So the cascade never
reports success while a partition of a downstream model differs from its build, whatever window the model has.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from dbt_backfill.dbt_runner import DbtRunner
from dbt_backfill.errors import BackfillError, BackfillRefused
from dbt_backfill.packet import Approval, Packet
from dbt_backfill.spec import BackfillSpec
from dbt_backfill.workflow.apply import ApplyResult, apply
from dbt_backfill.workflow.audit import record_refusal
from dbt_backfill.workflow.plan import NothingToChange, PlanRequest, plan

# what a downstream model runs, as the root's plan bound it (dbt_runner.code_binding)
BINDING = ("compiled_sql_sha256", "model_file_sha256", "meta_backfill_sha256")


@dataclass(frozen=True)
class CascadeStep:
    model: str
    outcome: str  # applied | unchanged (nothing its parents changed reaches it) | not_rebuilt
    detail: str
    packet: Path | None = None
    applied: ApplyResult | None = None


@dataclass(frozen=True)
class CascadeResult:
    root: ApplyResult
    steps: tuple[CascadeStep, ...]

    @property
    def left_stale(self) -> tuple[CascadeStep, ...]:
        """The downstream models the cascade did not rebuild that differ from a full build of them now: the root
        is applied, these are left to a person (the CLI's exit status 4)."""
        return tuple(step for step in self.steps if step.outcome == "stale")


def changed_partitions(packet: Packet) -> list[str]:
    """The partitions an applied packet changed: those whose approved rows (every column: the commitment) differ
    from the rows the plan found there."""
    return [p.value for p in packet.partitions if p.changed_by_the_repair]


def describe_reach(reach: Mapping[str, Any] | None) -> str:
    reach = reach or {}
    if not reach.get("declared_by"):
        return "the changed partitions alone (no depends_on_window declared)"
    sides = [f"{reach[side]} partition(s) {side}" for side in ("before", "after") if reach.get(side)]
    return f"the changed partitions and {' and '.join(sides) or 'none around them'} ({reach['declared_by']})"


def apply_cascade(
    runner: DbtRunner,
    path: Path,
    batch_size: int | None = None,
    now: dt.datetime | None = None,
    allow_source_drift: str | None = None,
) -> CascadeResult:
    """`allow_source_drift` is the root's alone: each downstream model is planned after its parents are applied,
    so what it pins is what it reads."""
    root = apply(runner, path, batch_size, allow_source_drift)
    packet = root.packet
    # what each model of the cascade changed, by name; None where it was not rebuilt (unknown to a child)
    changed: dict[str, list[str] | None] = {packet.model: changed_partitions(packet)}
    steps: list[CascadeStep] = []
    for downstream in packet.downstream:
        model = downstream["model"]
        parents = list(downstream.get("parents") or [packet.model])
        unknown = [parent for parent in parents if changed.get(parent) is None]
        upstream = sorted({value for parent in parents for value in changed.get(parent) or []})
        if downstream["mapping"] in ("view", "ephemeral"):
            changed[model] = None if unknown else upstream  # it reads its parents when queried
            steps.append(
                CascadeStep(model, "not_rebuilt", f"a {downstream['mapping']}: it reads its parents when queried")
            )
            continue
        changed[model] = None
        if downstream["mapping"] != "same_partitions":
            reason = f" ({downstream['reason']})" if downstream.get("reason") else ""
            steps.append(_probed(runner, model, f"its partitions do not map onto the root's{reason}", changed))
            continue
        if unknown:
            steps.append(
                _probed(
                    runner,
                    model,
                    f"its parent(s) {', '.join(unknown)} were not rebuilt, so what reaches it is unknown",
                    changed,
                )
            )
            continue
        if not upstream:
            changed[model] = []
            steps.append(CascadeStep(model, "unchanged", f"no partition of {', '.join(parents)} changed"))
            continue
        child_path = Path(path).with_name(f"{model}__{packet.run_id}__cascade.yml")
        done = ", ".join(s.model for s in steps if s.outcome == "applied")
        stopped = (
            f"The root {packet.model} is applied{'; so are ' + done if done else ''}; {model} and the models "
            f"after it are unchanged."
        )
        reach = downstream.get("reach") or {}
        try:
            node = runner.compile_model(model)
            if node.materialized == "table":  # a plan would need a person's --allow-table reason
                steps.append(
                    _probed(runner, model, "a table: its next `dbt run` rebuilds it whole from its parents", changed)
                )
                continue
            spec = BackfillSpec.resolve(model, node.meta_backfill, {})
            found = runner.run_operation(
                "partitions_in_reach",
                {
                    "model": model,
                    "partition_by": downstream["partition_by"],
                    "changed": upstream,
                    "before": int(reach.get("before") or 0),
                    "after": int(reach.get("after") or 0),
                    "model_sql": node.compiled_sql,
                    "exclude_columns": list(spec.exclude_columns),
                },
            ).first("reach")
        except BackfillRefused as refused:
            raise BackfillRefused(
                refused.reason, f"cascade stopped at {model}: {refused} {stopped}", refused.details
            ) from None
        except BackfillError as error:
            raise BackfillError(f"cascade stopped at {model}: {error} {stopped}") from None
        in_reach = [str(v) for v in found["partitions"]]
        beyond = [str(v) for v in found["beyond"]]
        if beyond:
            every = ",".join(in_reach + [v for v in beyond if v != "NULL"])
            refused = BackfillRefused(
                "cascade_reach",
                f"cascade stopped at {model}: partition(s) {', '.join(beyond)} lie outside its reach "
                f"({describe_reach(reach)} of {', '.join(upstream)}) but differ from a full build of it now: its rows "
                f"depend on more of {', '.join(parents)} than the reach says, or it was already out of date there. "
                f"Declare the window in its meta.backfill (depends_on_window: {{after: N}} for a trailing window of "
                f"N+1 partitions, before: for one that looks ahead) and plan the root again, or plan {model} by hand: "
                f"`dbt-backfill plan {model} --partitions {every}`. {stopped}",
                {"beyond": beyond, "reach": dict(reach), "changed": upstream, "in_reach": in_reach},
            )
            record_refusal(runner, node.relation, packet.run_id, model, refused)
            raise refused
        try:
            child = plan(
                runner,
                PlanRequest(
                    model=model,
                    partitions=in_reach,
                    out=child_path,
                    batch_size=batch_size or packet.batch_size,
                    cascade_of={"run_id": packet.run_id, "packet_sha256": packet.approval.packet_sha256},
                ),
            )
        except BackfillRefused as refused:
            raise BackfillRefused(
                refused.reason, f"cascade stopped at {model}: {refused} {stopped}", refused.details
            ) from None
        except BackfillError as error:
            raise BackfillError(f"cascade stopped at {model}: {error} {stopped}") from None
        if isinstance(child, NothingToChange):
            changed[model] = []
            steps.append(
                CascadeStep(
                    model,
                    "unchanged",
                    f"its partitions in reach ({', '.join(in_reach)}) already hold exactly what its build gives",
                )
            )
            continue
        bound = downstream.get("binding") or {}
        rebound = [name for name in BINDING if not bound.get(name) or child.packet.code.get(name) != bound[name]]
        if rebound:
            refused = BackfillRefused(
                "cascade_model_changed",
                f"cascade stopped at {model}: what it runs changed after "
                f"the root was planned ({', '.join(rebound)} differ from "
                f"the root's approved packet: its file, a macro, a var "
                f"or its meta.backfill), so the root's approval does "
                f"not cover it; the packet {child.path} needs a "
                f"person's review. {stopped}",
            )
            record_refusal(runner, child.packet.target, child.packet.run_id, model, refused)
            raise refused
        review = child.packet.review
        if review["verdict"] != "SAFE TO RUN":
            refused = BackfillRefused(
                "cascade_review",
                f"cascade stopped at {model}: its plan is reviewed "
                f"{review['verdict']} ({review['reason']}); the packet "
                f"{child.path} needs a person's review. {stopped}",
            )
            record_refusal(runner, child.packet.target, child.packet.run_id, model, refused)
            raise refused
        stamp = (now or dt.datetime.now(dt.timezone.utc)).isoformat(timespec="seconds")
        approved = child.packet.approved(
            Approval(
                approved_by=f"{packet.approval.approved_by} (cascade of {packet.run_id})",
                approved_at=stamp,
                packet_sha256=child.packet.sha256(),
            )
        )
        approved.write(child.path)
        try:
            applied = apply(runner, child.path, batch_size)
        except BackfillRefused as refused:
            raise BackfillRefused(
                refused.reason, f"cascade stopped at {model}: {refused} {stopped}", refused.details
            ) from None
        changed[model] = changed_partitions(applied.packet)
        steps.append(
            CascadeStep(
                model,
                "applied",
                f"{len(applied.replaced)} partition(s) replaced, "
                f"{len(applied.skipped)} already equal (reach: "
                f"{describe_reach(reach)} of {', '.join(upstream)}; every other "
                f"partition equal to a full build of it)",
                child.path,
                applied,
            )
        )
    # a model that became a child of the root after its plan (a new file, a new ref): not covered by the approval,
    # never rebuilt, but never left unchecked either
    listed = {entry.get("unique_id") for entry in packet.downstream}
    for unique_id in sorted(set(runner.compile_model(packet.model).downstream_bindings) - listed):
        steps.append(
            _probed(runner, unique_id.split(".")[-1], "it became downstream of the root after the root's plan", changed)
        )
    return CascadeResult(root=root, steps=tuple(steps))


def _probed(runner: DbtRunner, model: str, why: str, changed: dict[str, list[str] | None]) -> CascadeStep:
    """A downstream model the cascade does not rebuild (`why`), compared once with a full build of it now
    (downstream_drift): proven equal (`unchanged`: its children may rely on it), or `stale`, naming the partitions
    that differ and the command that repairs them. Never reported as done while it differs."""
    node = runner.compile_model(model)
    if node.materialized in ("view", "ephemeral"):
        return CascadeStep(model, "not_rebuilt", f"{why}; a {node.materialized}: it reads its parents when queried")
    spec = node.meta_backfill or {}
    partition_by = spec.get("partition_by") if isinstance(spec, dict) else None
    excluded = spec.get("exclude_columns") or [] if isinstance(spec, dict) else []
    drift = runner.run_operation(
        "downstream_drift",
        {
            "model": model,
            "model_sql": node.compiled_sql,
            "partition_by": partition_by,
            "exclude_columns": [c.strip() for c in excluded.split(",")]
            if isinstance(excluded, str)
            else list(excluded),
        },
    ).first("drift")
    if not drift["differing_rows"]:
        changed[model] = []
        return CascadeStep(
            model, "unchanged", f"{why}; compared with a full build of it now: equal, nothing to rebuild"
        )
    if partition_by and spec.get("business_key") and node.materialized != "table":
        differing = [str(v) for v in drift["differing"]]
        repair = f"`dbt-backfill plan {model} --partitions {drift['ranges']}`"
        where = f"partition(s) {', '.join(differing)} differ"
    else:
        repair = (
            f"`dbt run --select {model}`"
            if node.materialized == "table"
            else f"`dbt run --select {model} --full-refresh` (or declare its meta.backfill partition_by and "
            f"business_key to repair it by partition)"
        )
        where = f"{drift['differing_rows']} row(s) differ"
    return CascadeStep(
        model,
        "stale",
        f"{why}, so it was not rebuilt; compared with a full build of it now, {where} "
        f"from a full build of it: repair with {repair}",
    )
