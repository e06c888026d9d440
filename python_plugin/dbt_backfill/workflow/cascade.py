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
"""
from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from pathlib import Path

from dbt_backfill.dbt_runner import DbtRunner
from dbt_backfill.errors import BackfillError, BackfillRefused
from dbt_backfill.packet import Approval, Packet
from dbt_backfill.workflow.apply import ApplyResult, apply
from dbt_backfill.workflow.audit import record_refusal
from dbt_backfill.workflow.plan import PlanRequest, plan

# what a downstream model runs, as the root's plan bound it (dbt_runner.code_binding)
BINDING = ("compiled_sql_sha256", "model_file_sha256", "meta_backfill_sha256")


@dataclass(frozen=True)
class CascadeStep:
    model: str
    outcome: str  # applied | not_rebuilt
    detail: str
    packet: Path | None = None
    applied: ApplyResult | None = None


@dataclass(frozen=True)
class CascadeResult:
    root: ApplyResult
    steps: tuple[CascadeStep, ...]


def apply_cascade(runner: DbtRunner, path: Path, batch_size: int | None = None,
                  now: dt.datetime | None = None) -> CascadeResult:
    root = apply(runner, path, batch_size)
    packet = root.packet
    values = [p.value for p in packet.partitions]
    steps: list[CascadeStep] = []
    for downstream in packet.downstream:
        model = downstream["model"]
        if downstream["mapping"] in ("view", "ephemeral"):
            steps.append(CascadeStep(model, "not_rebuilt", f"a {downstream['mapping']}: it reads its parents when queried"))
            continue
        if downstream["mapping"] != "same_partitions":
            steps.append(CascadeStep(model, "not_rebuilt", "its partitions do not map onto the root's: a person decides "
                                                           "its scope (plan it by hand)"))
            continue
        child_path = Path(path).with_name(f"{model}__{packet.run_id}__cascade.yml")
        done = ", ".join(s.model for s in steps if s.outcome == "applied")
        stopped = (f"The root {packet.model} is applied{'; so are ' + done if done else ''}; {model} and the models "
                   f"after it are unchanged.")
        try:
            child = plan(runner, PlanRequest(model=model, partitions=values, out=child_path,
                                             batch_size=batch_size or packet.batch_size,
                                             cascade_of={"run_id": packet.run_id,
                                                         "packet_sha256": packet.approval.packet_sha256}))
        except BackfillRefused as refused:
            raise BackfillRefused(refused.reason, f"cascade stopped at {model}: {refused} {stopped}",
                                  refused.details) from None
        except BackfillError as error:
            raise BackfillError(f"cascade stopped at {model}: {error} {stopped}") from None
        bound = downstream.get("binding") or {}
        changed = [name for name in BINDING if not bound.get(name) or child.packet.code.get(name) != bound[name]]
        if changed:
            refused = BackfillRefused("cascade_model_changed", f"cascade stopped at {model}: what it runs changed after "
                                                               f"the root was planned ({', '.join(changed)} differ from "
                                                               f"the root's approved packet: its file, a macro, a var "
                                                               f"or its meta.backfill), so the root's approval does "
                                                               f"not cover it; the packet {child.path} needs a "
                                                               f"person's review. {stopped}")
            record_refusal(runner, child.packet.target, child.packet.run_id, model, refused)
            raise refused
        review = child.packet.review
        if review["verdict"] != "SAFE TO RUN":
            refused = BackfillRefused("cascade_review", f"cascade stopped at {model}: its plan is reviewed "
                                                        f"{review['verdict']} ({review['reason']}); the packet "
                                                        f"{child.path} needs a person's review. {stopped}")
            record_refusal(runner, child.packet.target, child.packet.run_id, model, refused)
            raise refused
        stamp = (now or dt.datetime.now(dt.timezone.utc)).isoformat(timespec="seconds")
        approved = child.packet.approved(Approval(approved_by=f"{packet.approval.approved_by} (cascade of {packet.run_id})",
                                                  approved_at=stamp, packet_sha256=child.packet.sha256()))
        approved.write(child.path)
        try:
            applied = apply(runner, child.path, batch_size)
        except BackfillRefused as refused:
            raise BackfillRefused(refused.reason, f"cascade stopped at {model}: {refused} {stopped}",
                                  refused.details) from None
        steps.append(CascadeStep(model, "applied", f"{len(applied.replaced)} partition(s) replaced, "
                                                   f"{len(applied.skipped)} already equal", child.path, applied))
    return CascadeResult(root=root, steps=tuple(steps))
