"""plan: pin the source, build every partition twice, compare, and write the approval packet.

Read-only towards the target. Refuses (BackfillRefused) when the source moves, the two builds differ, a stage
breaks the business key, or a stage would empty a published partition; no packet is written then.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import subprocess
import unicodedata
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

from dbt_backfill import __version__
from dbt_backfill.causes import classify
from dbt_backfill.dbt_runner import DbtRunner, ModelNode, recordable_vars
from dbt_backfill.errors import BackfillError, BackfillRefused, Interrupted, restated
from dbt_backfill.packet import Packet, PartitionPlan, plan_document_path
from dbt_backfill.signals import holding_signals
from dbt_backfill.spec import BackfillSpec
from dbt_backfill.workflow.run_relations import clean_relations


@dataclass(frozen=True)
class PlanRequest:
    model: str
    partitions: str | Sequence[str]  # as given: values and ranges, a list or one comma-separated string
    out: Path | None = None
    overrides: Mapping[str, Any] | None = None
    allow_empty: str | None = None  # the reason, when a partition may be emptied
    allow_watermark_move: str | None = None  # the reason, when the live job's watermark may rise
    allow_table: str | None = None  # the reason, when a `table` model (rebuilt whole by its next run) is planned
    batch_size: int = 5  # partitions per batch after the canary; apply may override
    cascade_of: Mapping[str, Any] | None = (
        None  # {run_id, packet_sha256, target_relation} of the root, for a cascade's plan
    )
    prove_window: str | None = None  # "full": prove the input windows over the whole history in this plan
    chosen_by: str | None = None  # how the partitions were chosen, where not named (plan --stale): the scope says it
    # told the partitions the package expanded the request's into, before anything is built (the CLI says them)
    on_resolved: Callable[[Sequence[str]], None] | None = None


@dataclass(frozen=True)
class PlanResult:
    packet: Packet
    path: Path
    markdown: str  # the written plan, also saved beside the packet
    # values only a range named that neither the target nor the model's output holds: left out before any build
    skipped_in_ranges: tuple[str, ...] = ()


@dataclass(frozen=True)
class NothingToChange:
    """A plan whose every partition already holds exactly what its build gives (the fingerprint and the
    commitment): nothing to approve, so no packet; its stages are dropped."""

    model: str
    run_id: str
    partitions: tuple[str, ...]
    message: str


class _AllEqual(Exception):
    def __init__(self, partitions: list[PartitionPlan]) -> None:
        super().__init__("every partition equals its build")
        self.partitions = partitions


HIDDEN_CATEGORIES = ("Cc", "Cf", "Zl", "Zp")  # control, invisible format, line and paragraph separators


def hidden_character(text: str) -> tuple[int, str] | None:
    """The first control, invisible format or separator character of `text` and its 1-based position, or None. The
    package refuses the same set in any partition value (macros/spec/_partition_items.sql), checked code point by
    code point by tests/test_cli_in_process.py."""
    return next(((at, c) for at, c in enumerate(text, start=1) if unicodedata.category(c) in HIDDEN_CATEGORIES), None)


def read_partitions_file(path: Path) -> list[str]:
    """One value or range per line, as the documentation says: lines end at a newline (LF or CR LF) and nowhere else
    (not at the vertical tab, form feed or U+0085 that str.splitlines also splits at); blank lines are skipped. A
    byte-order mark, NUL or any other control or invisible format character is refused by its line and column,
    never read as part of a value."""
    try:
        text = path.read_bytes().decode("utf-8")
    except UnicodeDecodeError as bad:
        raise BackfillError(
            f"--partitions-file {path}: byte {bad.start + 1} is not UTF-8. Nothing was changed."
        ) from None
    values = []
    for number, raw_line in enumerate(text.split("\n"), start=1):
        line = raw_line[:-1] if raw_line.endswith("\r") else raw_line
        hidden = hidden_character(line)
        if hidden:
            column, character = hidden
            what = "a byte-order mark" if character == "\ufeff" else "a control character"
            raise BackfillError(
                f"--partitions-file {path}, line {number}, column {column}: {what} "
                f"(U+{ord(character):04X}). Write one value or range per line, in plain text. "
                f"Nothing was changed."
            )
        if line.strip():
            values.append(line)
    return values


def check_out_path(path: Path) -> None:
    """--out names the packet; its written plan goes beside it (.md). Neither may replace a file a plan did not
    make: the packet must be a .yml/.yaml file, an existing file there must be a packet, and a plan document
    there must belong to a packet at `path`."""
    if path.suffix not in (".yml", ".yaml"):
        raise BackfillError(
            f"--out {path}: a packet is YAML, so its name ends in .yml or .yaml (its written plan "
            f"goes beside it as .md). Nothing was changed."
        )
    if path.exists():
        try:
            Packet.read(path)
        except BackfillError:
            raise BackfillError(
                f"--out {path}: that file exists and is not a packet; a plan does not write over it. "
                f"Name another file. Nothing was changed."
            ) from None
    elif plan_document_path(path).exists():
        raise BackfillError(
            f"--out {path}: {plan_document_path(path)} exists and is no packet's written plan (no packet "
            f"beside it); a plan does not write over it. Name another file. Nothing was changed."
        )


def _git_commit(project_dir: Path) -> str | None:
    try:
        completed = subprocess.run(
            ["git", "-C", str(project_dir), "rev-parse", "HEAD"],
            capture_output=True,
            text=True,
            timeout=10,
            check=False,
        )
    except (OSError, subprocess.SubprocessError):
        return None
    if completed.returncode != 0:
        return None
    return completed.stdout.strip() or None


def _refuse_as_planned(result: Mapping[str, Any]) -> None:
    """What the package refuses once the stages are built (macros/plan/_plan_refusal.sql: two builds that differ, a
    broken business key, a vacant or emptied partition, keys in two partitions or out of the named ones, a raised
    watermark), raised with its words: plan_backfill refuses the same, the same way."""
    refusal = result.get("refusal")
    if refusal is None:
        return
    if refusal["reason"] is None:
        raise BackfillError(refusal["message"])
    raise BackfillRefused(refusal["reason"], refusal["message"], refusal.get("details") or {})


def plan(runner: DbtRunner, request: PlanRequest, now: dt.datetime | None = None) -> PlanResult | NothingToChange:
    now = now or dt.datetime.now(dt.timezone.utc)
    if request.out is not None:
        check_out_path(Path(request.out))
    node = runner.compile_model(request.model)
    if not node.compiled_sql.strip():
        raise BackfillError(f"dbt compiled {node.name} to no SQL; nothing was changed.")
    resolved = _resolve(runner, node, request)
    spec, partitions, run_id = BackfillSpec.from_resolved(resolved["spec"]), resolved["partitions"], resolved["run_id"]
    if request.on_resolved is not None:
        request.on_resolved(partitions)
    path = request.out or (Path(runner.options.project_dir) / "backfills" / f"{node.name}__{run_id}.yml")
    try:
        return _plan(runner, request, node, spec, resolved, now, path)
    except _AllEqual as equal:
        return _nothing_to_change(runner, node, run_id, equal.partitions)
    except BackfillRefused as refused:
        if refused.reason != "unsafe_search_path":
            raise _plan_stopped(runner, node, run_id, path, refused) from None
        raise  # refused before it read anything: nothing to record (the audit table is read through that path too)
    except (BackfillError, KeyboardInterrupt) as failure:
        raise _plan_stopped(runner, node, run_id, path, failure) from None


def _plan_stopped(
    runner: DbtRunner,
    node: ModelNode,
    run_id: str,
    path: Path,
    failure: BackfillError | BackfillRefused | KeyboardInterrupt,
) -> Exception:
    """A plan that stopped: its `plan_failed` row, its stages dropped (or kept, to compare two builds), and the
    failure restated with what that left."""
    if isinstance(failure, KeyboardInterrupt):
        failure = Interrupted(
            f"the plan was stopped (Ctrl-C or SIGTERM). {_what_was_written(path, run_id)}; a plan "
            f"only reads the target, so the target is unchanged."
        )
    _record_plan_failed(runner, node, run_id, failure)
    said = _stages_after_failure(runner, run_id, keep=getattr(failure, "reason", None) == "builds_differ")
    if isinstance(failure, BackfillError) and failure.cause is not None:
        # the database stopped it, not the input: say what that means for the target, which a plan only reads
        first, _, rest = str(failure).partition("\n")
        first = f"{first} {_what_was_written(path, run_id)}; a plan only reads the target, so the target is unchanged."
    else:
        first, _, rest = str(failure).partition("\n")
    return restated(failure, f"{first} {said}\n{rest}".rstrip())


def _resolve(runner: DbtRunner, node: ModelNode, request: PlanRequest) -> Mapping[str, Any]:
    """The package's reading of the request (resolve_plan): meta.backfill with the overrides, the materialization,
    the partition values (ranges expanded, each once) and the run's id; refused as plan_backfill refuses it."""
    return runner.run_operation(
        "resolve_plan",
        {
            "model": node.name,
            "partitions": request.partitions if isinstance(request.partitions, str) else list(request.partitions),
            "overrides": {k: v for k, v in (request.overrides or {}).items() if v is not None},
            "allowances": {"table_model": request.allow_table} if request.allow_table else {},
        },
    ).first("resolved_plan")


def _nothing_to_change(
    runner: DbtRunner, node: ModelNode, run_id: str, partitions: list[PartitionPlan]
) -> NothingToChange:
    """Drop the stages (a plan that writes no packet leaves none), record `nothing_to_change`, and say so with
    what was read: each partition's rows and SHA-256, in the target and in its build alike."""
    dropped = _stages_after_failure(runner, run_id, keep=False)
    read = ", ".join(
        f"{p.value} ({p.target_before.row_count} rows, sha256 {p.target_before.short})" for p in partitions
    )
    message = (
        f"nothing to change: every partition of {node.name} already holds exactly the rows its build gives "
        f"(fingerprint and commitment): {read}. No packet was written and the target is unchanged. {dropped}"
    )
    try:
        runner.run_operation(
            "audit_event",
            {
                "target": node.relation.to_dict(),
                "event": "nothing_to_change",
                "run_id": run_id,
                "fields": {"model": node.name, "outcome": "no packet", "detail": read[:2000]},
            },
        )
    except (BackfillError, BackfillRefused):
        pass  # best effort, as a failed plan's row: what the target holds was read and said above
    return NothingToChange(
        model=node.name, run_id=run_id, partitions=tuple(p.value for p in partitions), message=message
    )


def _what_was_written(path: Path, run_id: str) -> str:
    """What a stopped plan left at `path`, read from the file (a stop can land after the packet was written)."""
    try:
        written = Packet.read(path).run_id == run_id
    except Exception:  # absent, half-written or not a packet: not this run's
        written = False
    return (
        f"Its packet file {path} was written, but the plan did not finish (its audit row or written plan may be "
        f"missing): plan again rather than approve it"
        if written
        else "No packet was written"
    )


@contextlib.contextmanager
def _finishing(what: str) -> Iterator[None]:
    """SIGINT and SIGTERM wait while `what` completes (the packet file, its audit row and the written plan belong
    together: a few seconds); the plan then ends as it would have. A second signal stops at once."""
    with holding_signals(
        lambda name: f"{name} received while {what}; stopping once that is done (send it again to stop at once)."
    ):
        yield


def _stages_after_failure(runner: DbtRunner, run_id: str, keep: bool) -> str:
    """A plan that wrote no usable packet drops the stages it built (the audit trail names them: clean_orphans),
    and says so; where it cannot, or where the stages are kept to be looked at (two builds that differ), it names
    them and the command that drops them."""
    command = f"`dbt-backfill clean --run {run_id}`"
    try:
        found = clean_relations(runner, run_id=run_id, drop=not keep)
    except (BackfillError, BackfillRefused) as failure:
        cause = classify(str(failure))
        # the failure's own words where no known cause names it: a plan that found nothing to change shows no
        # other error for "see the error" to point at
        words = [
            line.strip() for line in str(failure).splitlines() if line.strip() and not line.strip().startswith(">")
        ]
        said = cause.says if cause else (words[-1][:300] if words else "no error was given")
        return f"Its stages (run {run_id}) could not be dropped ({said}): drop them with {command}."
    if keep:
        names = [f.relation for f in found if f.kind in ("build a", "build b")]
        return f"{kept_stages_said(names)}; drop them with {command}."
    dropped = [f.relation for f in found if f.action == "dropped"]
    return f"Its stages were dropped ({len(dropped)} relation(s))." if dropped else "It built no stages."


def kept_stages_said(names: list[str]) -> str:
    """The stages a refused plan keeps, in words that stay short however many partitions it named: both names of
    one partition, else its first pair, the count and how the rest are named (as _refuse_planned says them)."""
    if len(names) <= 2:
        return f"Its stages are kept so the two builds can be compared: {', '.join(names) or 'none'}"
    return (
        f"Its {len(names)} stages are kept so the two builds can be compared: {names[0]}, {names[1]} and "
        f"{len(names) - 2} more named alike (__p<n>_a and __p<n>_b for the plan's partition n, from 0)"
    )


def _record_plan_failed(runner: DbtRunner, node: ModelNode, run_id: str, failure: Exception) -> None:
    """A failed or refused plan is `plan_failed` in the audit trail, with its reason (best effort: the database may
    be what failed). Never `planned`: that row means a packet was written."""
    cause = failure.cause if isinstance(failure, BackfillError) else None
    reason = getattr(failure, "reason", None) or (
        cause.kind if cause else "interrupted" if isinstance(failure, Interrupted) else "error"
    )
    try:
        runner.run_operation(
            "audit_event",
            {
                "target": node.relation.to_dict(),
                "event": "plan_failed",
                "run_id": run_id,
                "fields": {"model": node.name, "outcome": reason, "detail": str(failure).splitlines()[0][:2000]},
            },
        )
    except (BackfillError, BackfillRefused):
        pass


def _plan(
    runner: DbtRunner,
    request: PlanRequest,
    node: ModelNode,
    spec: BackfillSpec,
    resolved: Mapping[str, Any],
    now: dt.datetime,
    path: Path,
) -> PlanResult:
    """Build, compare and review in the package (plan_stages), check what it found, then write the packet, its
    `planned` row and the written plan together; a plan whose gates failed or whose review says BLOCK is written
    for review and refused."""
    code = {
        **node.binding,
        "git_commit": _git_commit(runner.options.project_dir),
        "dbt_backfill_version": __version__,
        "dbt_version": node.dbt_version,
    }
    result = _plan_stages(runner, request, node, spec, resolved, path, code, now)
    _refuse_as_planned(result)
    # the package built the packet (macros/packet/_packet_document.sql); Python reads it as its typed view
    packet = Packet.from_dict(result["packet"])
    if result.get("nothing_to_change"):  # every partition equals its build, fingerprint and commitment (_plan)
        raise _AllEqual(list(packet.partitions))
    markdown = (
        f"{result['markdown'].rstrip()}\n\n---\nThis plan describes packet `{path.name}`, SHA-256 "
        f"`{packet.sha256()}`: an approval binds to exactly that content.\n"
    )
    _write(runner, packet, path, markdown)
    _refuse_for_review(result, path)
    return PlanResult(
        packet=packet,
        path=path,
        markdown=markdown,
        skipped_in_ranges=tuple(str(v) for v in result.get("skipped_in_ranges") or ()),
    )


def _plan_stages(
    runner: DbtRunner,
    request: PlanRequest,
    node: ModelNode,
    spec: BackfillSpec,
    resolved: Mapping[str, Any],
    path: Path,
    code: Mapping[str, Any],
    now: dt.datetime,
) -> Mapping[str, Any]:
    """The package's plan (plan_stages): the stages built twice, fingerprinted, compared and reviewed, and the
    packet, with what only the CLI knows bound into it."""
    allowances = (
        ("empty_partitions", request.allow_empty),
        ("watermark_move", request.allow_watermark_move),
        ("table_model", request.allow_table),
    )
    invocation = runner.run_operation(
        "plan_stages",
        {
            "model": node.name,
            "run_id": resolved["run_id"],
            "target": node.relation.to_dict(),
            "model_sql": node.compiled_sql,
            "partitions": list(resolved["partitions"]),
            "from_ranges": list(resolved["from_ranges"]),
            **spec.operation_args(),
            "prove_window": request.prove_window,
            "allowances": {k: v for k, v in allowances if v},
            "code": dict(code),
            "batch_size": request.batch_size,
            "commands": _commands(path, node.name),
            "chosen_by": request.chosen_by,
            "bound": {
                "created_at": now.isoformat(timespec="seconds"),
                "dbt_target": runner.options.target,
                "dbt_vars": recordable_vars(runner.options.vars),
                "cascade_of": dict(request.cascade_of) if request.cascade_of else None,
                # each downstream model bound by what it runs, compiled with the root (code_binding): a cascade
                # approves its plan in the root approver's name only while that is unchanged
                "downstream_bindings": {k: dict(v) for k, v in node.downstream_bindings.items()},
            },
        },
    )
    result = invocation.maybe("plan")
    if result is None:
        raise BackfillError("the plan_stages operation returned no result; nothing was changed.")
    if result["package_version"] != __version__:
        raise BackfillError(
            f"the dbt package dbt_backfill installed in the project is version "
            f"{result['package_version']}, this CLI is {__version__}: align them (packages.yml, "
            f"dbt deps). No packet was written and the target is unchanged."
        )
    return result


def _write(runner: DbtRunner, packet: Packet, path: Path, markdown: str) -> None:
    """The packet file, its `planned` row and the written plan, together (a signal waits for all three)."""
    with _finishing("the plan writes its packet and records it"):
        packet.write(path)
        # The plan's record of what it wrote: apply, rollback and clean refuse a packet whose content no plan wrote
        # (an edited packet re-hashed to match a copied approval has no such row).
        runner.run_operation(
            "audit_event",
            {
                "target": packet.target.to_dict(),
                "event": "planned",
                "run_id": packet.run_id,
                "fields": {
                    "model": packet.model,
                    "packet_sha256": packet.sha256(),
                    "outcome": packet.review["verdict"],
                    "fingerprint_after": [p.fingerprint.sha256 for p in packet.partitions],
                    "detail": f"{', '.join(p.value for p in packet.partitions)} ({path})",
                    # a cascade's child: its root, recorded beside the planned row (the one claim apply believes)
                    **({"cascade_of": dict(packet.cascade_of)} if packet.cascade_of else {}),
                },
            },
        )
        plan_document_path(path).write_text(markdown)


def _refuse_for_review(result: Mapping[str, Any], path: Path) -> None:
    """A packet whose gates failed or whose review says BLOCK is written for review, and the plan is refused with
    the package's words (macros/review/_review_refusal.sql), as plan_backfill refuses it."""
    refusal = result.get("review_refusal")
    if refusal is not None:
        raise BackfillRefused(
            refusal["reason"],
            f"{refusal['message']} The packet and plan are written for review ({path}, {plan_document_path(path)}); "
            f"approve and apply refuse it. The target is unchanged.",
            {"packet": str(path), **refusal["details"]},
        )


def _commands(path: Path, model: str) -> dict[str, str]:
    """The next steps as the plan document names them: this CLI's commands on this packet."""
    return {
        "approve": f"`dbt-backfill approve {path} --by <name>`",
        "apply": f"`dbt-backfill apply {path}`",
        "verify": f"`dbt-backfill verify {path}`",
        "rollback": f"`dbt-backfill rollback {path}`",
        "history": f"`dbt-backfill history {model}`",
    }
