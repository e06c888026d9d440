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
import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from dbt_backfill.dbt_runner import DbtRunner, ModelNode
from dbt_backfill.errors import BackfillError, BackfillRefused
from dbt_backfill.packet import Approval, Packet, PacketFile
from dbt_backfill.workflow.apply import ApplyResult, apply
from dbt_backfill.workflow.approval import KeyApproval
from dbt_backfill.workflow.audit_trail import record_refusal
from dbt_backfill.workflow.plan import NothingToChange, PlanRequest, PlanResult, plan
from dbt_backfill.workflow.state import StoppedShort, state_after

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
    opened: PacketFile,
    batch_size: int | None = None,
    now: dt.datetime | None = None,
    allow_source_drift: str | None = None,
) -> CascadeResult:
    """`allow_source_drift` is the root's alone: each downstream model is planned after its parents are applied,
    so what it pins is what it reads."""
    root = apply(runner, opened, batch_size, allow_source_drift)
    packet = root.packet
    # what each model of the cascade changed, by name; None where it was not rebuilt (unknown to a child)
    changed: dict[str, list[str] | None] = {packet.model: changed_partitions(packet)}
    steps: list[CascadeStep] = []
    cascade = _Cascade(runner, opened, batch_size, now, steps, root.signatures)
    try:
        for downstream in packet.downstream:
            steps.append(_step(cascade, downstream, changed))
        # a model that became a child of the root after its plan (a new file, a new ref): not covered by the
        # approval, never rebuilt, but never left unchecked either
        listed = {entry.get("unique_id") for entry in packet.downstream}
        compiled = runner.compile_model(packet.model)
        for unique_id in sorted(set(compiled.downstream_names) - listed):
            why = "it became downstream of the root after the root's plan"
            steps.append(_probed(runner, compiled.downstream_names[unique_id], why, changed))
    except (BackfillError, BackfillRefused) as failure:
        # the root is written: whatever stopped the cascade is said with what each model holds now, read afresh
        raise _stopped_after_the_root(cascade, root, failure) from None
    return CascadeResult(root=root, steps=tuple(steps))


# what a step's own failure may say of its own step; after the root's write it is not true of the command
_NOTHING_CHANGED = re.compile(r"\s*(nothing was changed|nothing was changed by this step)[^.\n]*\.", re.IGNORECASE)


def _stopped_after_the_root(
    cascade: _Cascade, root: ApplyResult, failure: BackfillError | BackfillRefused
) -> StoppedShort:
    """A failure after the root's partitions were written: its words without any "nothing was changed" (true of
    the step, false of the command), what the cascade wrote before it stopped, and the root's partitions read
    afresh (StoppedShort: the CLI prints that state after the line)."""
    said = _NOTHING_CHANGED.sub("", str(failure)).strip()
    if not said.startswith("cascade stopped at"):
        said = f"the cascade stopped after the root was applied: {said}"
    written = [f"{root.packet.model}: {len(root.replaced)} partition(s) replaced" + _values(root.replaced)]
    written += [
        f"{s.model}: {len(s.applied.replaced)} partition(s) replaced" + _values(s.applied.replaced)
        for s in cascade.steps
        if s.applied is not None
    ]
    said = f"{said}\nWritten before it stopped: {'; '.join(written)}. What the root's partitions hold now, read afresh:"
    raised: BackfillError | BackfillRefused = (
        BackfillRefused(failure.reason, said, failure.details)
        if isinstance(failure, BackfillRefused)
        else BackfillError(said)
    )
    return StoppedShort(raised, state_after(cascade.runner, root.packet, cascade.root.path))


def _values(replaced: tuple[Any, ...]) -> str:
    return f" ({', '.join(r.value for r in replaced)})" if replaced else ""


@dataclass(frozen=True)
class _Cascade:
    """What every step of one cascade shares: the root's packet file, the batch size, the clock, the steps so far."""

    runner: DbtRunner
    root: PacketFile
    batch_size: int | None
    now: dt.datetime | None
    steps: list[CascadeStep]
    signatures: tuple[KeyApproval, ...]  # the root's approvals its keys proved: they cover each child

    def stopped_at(self, model: str) -> str:
        """What a refusal at `model` adds: what is applied and what is left unchanged."""
        done = ", ".join(s.model for s in self.steps if s.outcome == "applied")
        return (
            f"The root {self.root.packet.model} is applied{'; so are ' + done if done else ''}; {model} and the "
            f"models after it are unchanged."
        )

    def failed_at(self, model: str, failure: BackfillError | BackfillRefused) -> BackfillError | BackfillRefused:
        """`failure` of a step at `model`, said as the cascade's: where it stopped and what is left."""
        said = f"cascade stopped at {model}: {failure} {self.stopped_at(model)}"
        if isinstance(failure, BackfillRefused):
            return BackfillRefused(failure.reason, said, failure.details)
        return BackfillError(said)


def _step(cascade: _Cascade, downstream: Mapping[str, Any], changed: dict[str, list[str] | None]) -> CascadeStep:
    """One downstream model: not rebuilt (a view), probed (its partitions do not map, or what reaches it is
    unknown), unchanged (nothing changed upstream), or rebuilt over its reach."""
    runner, root = cascade.runner, cascade.root.packet
    model = downstream["model"]
    parents = list(downstream.get("parents") or [root.model])
    unknown = [parent for parent in parents if changed.get(parent) is None]
    upstream = sorted({value for parent in parents for value in changed.get(parent) or []})
    if downstream["mapping"] in ("view", "ephemeral"):
        changed[model] = None if unknown else upstream  # it reads its parents when queried
        return CascadeStep(model, "not_rebuilt", f"a {downstream['mapping']}: it reads its parents when queried")
    changed[model] = None
    if downstream["mapping"] != "same_partitions":
        # the mapping the root's plan found (the packet's): a declaration made since is read by the next plan
        reason = f" (as the root's plan found it: {downstream['reason']})" if downstream.get("reason") else ""
        return _probed(runner, model, f"its partitions do not map onto the root's{reason}", changed)
    if unknown:
        why = f"its parent(s) {', '.join(unknown)} were not rebuilt, so what reaches it is unknown"
        return _probed(runner, model, why, changed)
    if not upstream:
        changed[model] = []
        return CascadeStep(model, "unchanged", f"no partition of {', '.join(parents)} changed")
    return _rebuild(cascade, downstream, parents, upstream, changed)


def _rebuild(
    cascade: _Cascade,
    downstream: Mapping[str, Any],
    parents: list[str],
    upstream: list[str],
    changed: dict[str, list[str] | None],
) -> CascadeStep:
    """Plan the model over its reach, approve it in the root approver's name if its plan is SAFE TO RUN and binds
    the code the root's approval covers, and apply it."""
    runner, model = cascade.runner, downstream["model"]
    reach = downstream.get("reach") or {}
    try:
        node = runner.compile_model(model)
        if node.materialized == "table":  # a plan would need a person's --allow-table reason
            return _probed(runner, model, "a table: its next `dbt run` rebuilds it whole from its parents", changed)
        found = _partitions_in_reach(cascade, node, downstream, upstream)
    except (BackfillRefused, BackfillError) as failure:
        raise cascade.failed_at(model, failure) from None
    in_reach = _refuse_beyond_reach(cascade, node, downstream, parents, upstream, found)
    try:
        child = _plan_child(cascade, model, in_reach)
    except (BackfillRefused, BackfillError) as failure:
        raise cascade.failed_at(model, failure) from None
    if isinstance(child, NothingToChange):
        changed[model] = []
        why = f"its partitions in reach ({', '.join(in_reach)}) already hold exactly what its build gives"
        return CascadeStep(model, "unchanged", why)
    applied = _apply_child(cascade, model, downstream, child)
    changed[model] = changed_partitions(applied.packet)
    return CascadeStep(
        model,
        "applied",
        f"{len(applied.replaced)} partition(s) replaced, {len(applied.skipped)} already equal (reach: "
        f"{describe_reach(reach)} of {', '.join(upstream)}; every other partition equal to a full build of it)",
        child.path,
        applied,
    )


def _partitions_in_reach(
    cascade: _Cascade, node: ModelNode, downstream: Mapping[str, Any], upstream: list[str]
) -> Mapping[str, Any]:
    """The model's partitions in reach of what changed upstream, and those beyond it that differ from a full build
    of the model now (partitions_in_reach)."""
    model = downstream["model"]
    reach = downstream.get("reach") or {}
    return cascade.runner.run_operation(
        "partitions_in_reach",
        {
            "model": model,
            "partition_by": downstream["partition_by"],
            "changed": upstream,
            "before": int(reach.get("before") or 0),
            "after": int(reach.get("after") or 0),
            "model_sql": node.compiled_sql,
        },
    ).first("reach")


def _refuse_beyond_reach(
    cascade: _Cascade,
    node: ModelNode,
    downstream: Mapping[str, Any],
    parents: list[str],
    upstream: list[str],
    found: Mapping[str, Any],
) -> list[str]:
    """The partitions in reach; refused when one beyond the reach differs from a full build of the model (its
    window is wider than declared, or it was stale already)."""
    model = downstream["model"]
    reach = downstream.get("reach") or {}
    in_reach = [str(v) for v in found["partitions"]]
    beyond = [str(v) for v in found["beyond"]]
    if not beyond:
        return in_reach
    every = ",".join(in_reach + [v for v in beyond if v != "NULL"])
    refused = BackfillRefused(
        "cascade_reach",
        f"cascade stopped at {model}: partition(s) {', '.join(beyond)} lie outside its reach "
        f"({describe_reach(reach)} of {', '.join(upstream)}) but differ from a full build of it now: its rows "
        f"depend on more of {', '.join(parents)} than the reach says, or it was already out of date there. "
        f"Declare the window in its meta.backfill (depends_on_window: {{after: N}} for a trailing window of "
        f"N+1 partitions, before: for one that looks ahead) and plan the root again, or plan {model} by hand: "
        f"`dbt-backfill plan {model} --partitions {every}`. {cascade.stopped_at(model)}",
        {"beyond": beyond, "reach": dict(reach), "changed": upstream, "in_reach": in_reach},
    )
    record_refusal(cascade.runner, node.relation, cascade.root.packet.run_id, model, refused)
    raise refused


def _plan_child(cascade: _Cascade, model: str, in_reach: list[str]) -> PlanResult | NothingToChange:
    root = cascade.root
    return plan(
        cascade.runner,
        PlanRequest(
            model=model,
            partitions=in_reach,
            out=_unused_packet_path(root.path.with_name(f"{model}__{root.packet.run_id}__cascade.yml")),
            batch_size=cascade.batch_size or root.packet.batch_size,
            # the root's target too: a login's approval of the root is recorded beside the root's table, which may
            # not be the child's audit table (a custom schema)
            cascade_of={
                "run_id": root.packet.run_id,
                "packet_sha256": _approval(root.packet).packet_sha256,
                "target_relation": root.packet.target.to_dict(),
            },
        ),
    )


def _unused_packet_path(path: Path) -> Path:
    """`path`, or where a packet is there already (an earlier cascade of the same root: applied, say, then rolled
    back with it), the first `<name>.<n>.yml` free beside it. A packet is its run's record, with the audit rows: a
    second `apply --cascade` of a root wrote its child's plan over the first child's packet (a new user's run on
    2026-12-07), and `clean` then pointed at a packet that was gone."""
    number = 1
    while path.exists() or path.with_suffix(".md").exists():
        number += 1
        path = path.with_name(f"{path.name.split('.')[0]}.{number}.yml")
    return path


def _approval(packet: Packet) -> Approval:
    assert packet.approval is not None, "apply returns only an approved packet"
    return packet.approval


def _apply_child(cascade: _Cascade, model: str, downstream: Mapping[str, Any], child: PlanResult) -> ApplyResult:
    """Approve and apply the child's plan, if the root's approval covers it: the code the root bound, and a plan
    SAFE TO RUN. Else refused, the child's packet left for a person."""
    runner, root = cascade.runner, cascade.root.packet
    bound = downstream.get("binding") or {}
    rebound = [name for name in BINDING if not bound.get(name) or child.packet.code.get(name) != bound[name]]
    review = child.packet.review
    if rebound:
        refused = BackfillRefused(
            "cascade_model_changed",
            f"cascade stopped at {model}: what it runs changed after the root was planned ({', '.join(rebound)} "
            f"differ from the root's approved packet: its file, a macro, a var or its meta.backfill), so the root's "
            f"approval does not cover it; the packet {child.path} needs a person's review. {cascade.stopped_at(model)}",
        )
    elif review["verdict"] != "SAFE TO RUN":
        refused = BackfillRefused(
            "cascade_review",
            f"cascade stopped at {model}: its plan is reviewed {review['verdict']} ({review['reason']}); the packet "
            f"{child.path} needs a person's review. {cascade.stopped_at(model)}",
        )
    else:
        stamp = (cascade.now or dt.datetime.now(dt.timezone.utc)).isoformat(timespec="seconds")
        by = _approval(root).approved_by
        approval = Approval(
            approved_by=f"{by} (cascade of {root.run_id})", approved_at=stamp, packet_sha256=child.packet.sha256()
        )
        approved = child.packet.approved(approval)
        approved.write(child.path)
        try:
            return apply(runner, PacketFile(child.path, approved), cascade.batch_size, covered_by=cascade.signatures)
        except BackfillRefused as refused_before:  # before it wrote: the packet, its approval, where it runs
            raise cascade.failed_at(model, refused_before) from None
        except StoppedShort as stopped:
            if isinstance(stopped.failure, BackfillRefused):  # said as the cascade's refusal, as before it wrote
                raise cascade.failed_at(model, stopped.failure) from None
            raise  # an error or an interruption: with the child's state, read afresh

    record_refusal(runner, child.packet.target, child.packet.run_id, model, refused)
    raise refused


def _probed(runner: DbtRunner, model: str, why: str, changed: dict[str, list[str] | None]) -> CascadeStep:
    """A downstream model the cascade does not rebuild (`why`), compared once with a full build of it now
    (downstream_drift): proven equal (`unchanged`: its children may rely on it), or `stale`, naming the partitions
    that differ and the command that repairs them. Never reported as done while it differs."""
    node = runner.compile_model(model)
    if node.materialized in ("view", "ephemeral"):
        return CascadeStep(model, "not_rebuilt", f"{why}; a {node.materialized}: it reads its parents when queried")
    # its meta.backfill is read by the package, as every reader of a contract reads it
    drift = runner.run_operation("downstream_drift", {"model": model, "model_sql": node.compiled_sql}).first("drift")
    if not drift["differing_rows"]:
        changed[model] = []
        return CascadeStep(
            model, "unchanged", f"{why}; compared with a full build of it now: equal, nothing to rebuild"
        )
    if drift["by_partition"]:
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
