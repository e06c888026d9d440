"""plan: pin the source, build every partition twice, compare, and write the approval packet.

Read-only towards the target. Refuses (BackfillRefused) when the source moves, the two builds differ, a stage
breaks the business key, or a stage would empty a published partition; no packet is written then.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import re
import secrets
import signal
import subprocess
import sys
import threading
import unicodedata
from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from dbt_backfill import __version__
from dbt_backfill.causes import classify
from dbt_backfill.dbt_runner import DbtRunner, ModelNode
from dbt_backfill.errors import BackfillError, BackfillRefused, Interrupted, restated
from dbt_backfill.fingerprint import Fingerprint
from dbt_backfill.packet import Changes, Packet, PartitionPlan, RelationRef
from dbt_backfill.shown import quoted, shown
from dbt_backfill.spec import BackfillSpec
from dbt_backfill.workflow.clean import clean_relations


@dataclass(frozen=True)
class PlanRequest:
    model: str
    partitions: Sequence[str]
    out: Path | None = None
    overrides: Mapping[str, Any] | None = None
    allow_empty: str | None = None  # the reason, when a partition may be emptied
    allow_watermark_move: str | None = None  # the reason, when the live job's watermark may rise
    allow_table: str | None = None  # the reason, when a `table` model (rebuilt whole by its next run) is planned
    batch_size: int = 5  # partitions per batch after the canary; apply may override
    cascade_of: Mapping[str, str] | None = None  # {run_id, packet_sha256} of the root, for a cascade's plan
    prove_window: str | None = None  # "full": prove the input windows over the whole history in this plan


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


RANGE_LIMIT = 10_000  # values one range may expand to: a typo (2026..20260) must not plan twenty thousand days
TOTAL_LIMIT = 10_000  # values all ranges and values together may come to (docs/cli.md)
DATE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")
INTEGER = re.compile(r"-?[0-9]{1,18}")


def literal(item: str) -> str | None:
    """A value written in double quotes ("a..b"): taken as it is between them, never a range. The way to name a text
    value holding `..` (docs/cli.md)."""
    return item[1:-1] if len(item) >= 2 and item[0] == item[-1] == '"' else None


def is_range(item: str) -> bool:
    return ".." in item and literal(item) is None


def expand_range(item: str) -> list[str]:
    """`first..last`, inclusive: ISO dates day by day, or integers one by one; "a quoted value" is that value; any
    other item is itself. What the values mean is the database's to say: each is checked by the partition column's
    own cast, as any value."""
    quoted_value = literal(item)
    if quoted_value is not None:
        return [quoted_value]
    first, dots, last = item.partition("..")
    if not dots:
        return [item]
    if DATE.fullmatch(first) and DATE.fullmatch(last):
        try:
            start, end = dt.date.fromisoformat(first), dt.date.fromisoformat(last)
        except ValueError as bad:
            raise BackfillError(f"partition range {quoted(item)}: {bad}. Nothing was changed.") from None
        low, high, step = start.toordinal(), end.toordinal(), lambda n: dt.date.fromordinal(n).isoformat()
    elif INTEGER.fullmatch(first) and INTEGER.fullmatch(last):
        low, high, step = int(first), int(last), str
    else:
        raise BackfillError(
            f"partition range {quoted(item)} is not first..last of two ISO dates (2026-01-01..2026-03-31) or "
            f"two integers (1..12). Nothing was changed."
        )
    if high < low:
        raise BackfillError(
            f"partition range {quoted(item)} is empty: its first value comes after its last. Nothing was changed."
        )
    if high - low >= RANGE_LIMIT:
        raise BackfillError(
            f"partition range {quoted(item)} spans more than {RANGE_LIMIT:,} values. Nothing was changed."
        )
    return [step(n) for n in range(low, high + 1)]


def values_from_ranges(text: str | Sequence[str]) -> list[str]:
    """The values only a range names (not also named alone): the plan leaves out those neither the target nor the
    model's output holds (a month 202513 in 202512..202602, a day without rows) before it builds anything."""
    items = list(text.split(",") if isinstance(text, str) else text)
    alone = {expand_range(item)[0] for item in items if not is_range(item)}
    return [value for item in items if is_range(item) for value in expand_range(item) if value not in alone]


def parse_partitions(text: str | Sequence[str]) -> tuple[str, ...]:
    # Never stripped nor rewritten: ' lead' and 'lead' are two partitions of a text column. A value the column's
    # type would change is refused by the package (the round trip in _check_partition_values).
    items = list(text.split(",") if isinstance(text, str) else text)
    if not items or any(not v for v in items):
        raise BackfillError(
            f"--partitions must be a comma-separated list of partition values, got {shown(text)}. Nothing was changed."
        )
    values: list[str] = []
    for item in items:
        hidden = hidden_character(item)
        if hidden:
            raise BackfillError(
                f"partition value {shown(item)} holds a control or invisible character (U+"
                f"{ord(hidden[1]):04X}, character {hidden[0]}): no partition is named so. Nothing "
                f"was changed."
            )
        values.extend(expand_range(item))
        if len(values) > TOTAL_LIMIT:  # checked as it grows: three ranges under the cap each are still too many
            raise BackfillError(
                f"the partitions named come to more than {TOTAL_LIMIT:,} values (every range and "
                f"value together). Nothing was changed."
            )
    counts = Counter(values)  # one pass: a repeat check must not cost the square of the values
    repeated = sorted(value for value, count in counts.items() if count > 1)
    if repeated:
        raise BackfillError(
            f"partition(s) {', '.join(shown(v) for v in repeated[:20])}"
            f"{f' and {len(repeated) - 20} more' if len(repeated) > 20 else ''} named more than once. "
            f"Nothing was changed."
        )
    return tuple(values)


def hidden_character(text: str) -> tuple[int, str] | None:
    """The first control or invisible format character of `text` and its 1-based position, or None."""
    return next(((at, c) for at, c in enumerate(text, start=1) if unicodedata.category(c) in ("Cc", "Cf")), None)


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


def new_run_id(now: dt.datetime) -> str:
    # Lower case, digits and underscores: safe inside an unquoted identifier on every engine.
    return now.strftime("%Y%m%d_%H%M%S_") + secrets.token_hex(2)


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


def _check_builds(partitions: list[PartitionPlan], stage_schema: str, allow_empty: str | None) -> None:
    differing = [p for p in partitions if p.builds["a"] != p.builds["b"]]
    if differing:
        described = "; ".join(
            f"{p.value}: a {p.builds['a'].describe()} vs b {p.builds['b'].describe()}" for p in differing
        )
        raise BackfillRefused(
            "builds_differ",
            f"the two builds differ for partition(s) {', '.join(p.value for p in differing)} ({described}). The model "
            f"does not give the same rows twice from the same source (random(), now(), a newest-wins order with "
            f"ties, an unordered limit). No packet was written and the target is unchanged.",
            {"partitions": [p.value for p in differing]},
        )
    broken = [p for p in partitions if p.fingerprint.null_keys or p.fingerprint.duplicate_keys]
    if broken:
        described = "; ".join(
            f"{p.value}: {p.fingerprint.null_keys} null, {p.fingerprint.duplicate_keys} duplicated" for p in broken
        )
        raise BackfillRefused(
            "business_key",
            f"the business key does not identify one row per key in partition(s) {described}. Fix the model's "
            f"newest-wins logic or the declared business_key. No packet was written and the target is unchanged.",
            {"partitions": [p.value for p in broken]},
        )
    nothing = [p for p in partitions if p.fingerprint.row_count == 0 and p.target_before.row_count == 0]
    if nothing:
        raise BackfillError(
            f"partition(s) {', '.join(p.value for p in nothing)} hold no rows in the target and none in the model's "
            f"output: there is nothing to repair. Check the values (and their format). No packet was written and "
            f"the target is unchanged."
        )
    emptied = [p for p in partitions if p.fingerprint.row_count == 0 and p.target_before.row_count > 0]
    if emptied and not allow_empty:
        raise BackfillRefused(
            "empty_stage",
            f"the model produces no rows for partition(s) {', '.join(p.value for p in emptied)}, where the target "
            f"holds {', '.join(str(p.target_before.row_count) for p in emptied)} rows: applying would empty them. "
            f"Check the partition values and the source; if emptying is right, plan again with --allow-empty "
            f'"<reason>". No packet was written and the target is unchanged.',
            {"partitions": [p.value for p in emptied]},
        )


def _check_keys_and_watermark(
    result: Mapping[str, Any], business_key: Sequence[str], allow_watermark_move: str | None
) -> None:
    collisions = result.get("key_collisions") or []
    if collisions:
        described = "; ".join(
            f"{'|'.join(business_key)}={c['key']} in {c['partition']} and in {c['also_in']}" for c in collisions
        )
        raise BackfillRefused(
            "key_in_two_partitions",
            f"after the backfill these keys would be in two partitions ({described}): a row moved between "
            f"partitions and only one side is named. Name every partition it moved between. No packet was written and the target "
            f"is unchanged.",
            {"collisions": collisions},
        )
    moved_out = result.get("keys_moved_out") or []
    if moved_out:
        described = "; ".join(
            f"{'|'.join(business_key)}={m['key']} leaves {m['partition']} for {m['moved_to']}" for m in moved_out
        )
        to_add = sorted({m["moved_to"] for m in moved_out})
        raise BackfillRefused(
            "key_moved_out_of_scope",
            f"rows would be lost: a full build of the model places these keys in partitions the plan does not name "
            f"({described}); replacing the named partitions alone would leave them in no partition. Add "
            f"{', '.join(to_add)} to --partitions. No packet was written and the target is unchanged.",
            {"moved_out": moved_out, "partitions_to_add": to_add},
        )
    watermark = result.get("watermark")
    if watermark and watermark["raised"] and not allow_watermark_move:
        raise BackfillRefused(
            "watermark_raised",
            f"the backfill would raise the live job's watermark max({watermark['before']['column']}) from "
            f"{watermark['before']['value']} to {watermark['after']['value']}: the next scheduled run would resume "
            f"from there and skip what lies between. Leave the newest partitions to the live job, or plan again "
            f'with --allow-watermark-move "<reason>". No packet was written and the target is unchanged.',
            {"watermark": watermark},
        )


def plan(runner: DbtRunner, request: PlanRequest, now: dt.datetime | None = None) -> PlanResult | NothingToChange:
    now = now or dt.datetime.now(dt.timezone.utc)
    partitions = parse_partitions(request.partitions)
    if request.out is not None:
        check_out_path(Path(request.out))
    node = runner.compile_model(request.model)
    spec = BackfillSpec.resolve(node.name, node.meta_backfill, request.overrides or {})
    _check_materialization(node, request.allow_table)
    if not node.compiled_sql.strip():
        raise BackfillError(f"dbt compiled {node.name} to no SQL; nothing was changed.")
    run_id = new_run_id(now)
    path = request.out or (Path(runner.options.project_dir) / "backfills" / f"{node.name}__{run_id}.yml")
    try:
        return _plan(runner, request, node, spec, partitions, run_id, now, path)
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


def _check_materialization(node: ModelNode, allow_table: str | None) -> None:
    """The CLI's copy of the package's _check_materialization (macros/plan/_plan.sql), made before anything is read
    or recorded: the same refusals, word for word (tests/test_plan_review.py runs both paths)."""
    if node.materialized in ("view", "ephemeral"):
        how = (
            "a view: it runs its SQL on every read"
            if node.materialized == "view"
            else "ephemeral: it has no table, its SQL is inlined where it is read"
        )
        raise BackfillError(
            f"{node.name} is materialized as {how}, so it is always current and there is nothing to "
            f"repair. Nothing was changed."
        )
    if node.materialized == "table" and not allow_table:
        raise BackfillError(
            f"{node.name} is materialized as a table: its next `dbt run` rebuilds it whole from its "
            f"sources, replacing whatever a backfill writes (rebuilding it is the repair). To replace "
            f'partitions until then, say why: --allow-table "<reason>" (pure dbt: allow_table: '
            f"<reason>), kept in the packet. Nothing was changed."
        )


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
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    received: list[str] = []

    def hold(signum: int, frame: Any) -> None:
        if received:
            raise KeyboardInterrupt
        received.append(signal.Signals(signum).name)
        print(
            f"dbt-backfill: {received[0]} received while {what}; stopping once that is done (send it again to stop "
            f"at once).",
            file=sys.__stderr__,
            flush=True,
        )

    previous = {sig: signal.signal(sig, hold) for sig in (signal.SIGINT, signal.SIGTERM)}
    try:
        yield
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)


def _stages_after_failure(runner: DbtRunner, run_id: str, keep: bool) -> str:
    """A plan that wrote no usable packet drops the stages it built (the audit trail names them: clean_orphans),
    and says so; where it cannot, or where the stages are kept to be looked at (two builds that differ), it names
    them and the command that drops them."""
    command = f"`dbt-backfill clean --run {run_id}`"
    try:
        found = clean_relations(runner, run_id=run_id, drop=not keep)
    except (BackfillError, BackfillRefused) as failure:
        cause = classify(str(failure))
        return (
            f"Its stages (run {run_id}) could not be dropped ({cause.says if cause else 'see the error'}): "
            f"drop them with {command}."
        )
    if keep:
        names = [f.relation for f in found if f.kind in ("build a", "build b")]
        return (
            f"Its stages are kept so the two builds can be compared: {', '.join(names) or 'none'}; drop them with "
            f"{command}."
        )
    dropped = [f.relation for f in found if f.action == "dropped"]
    return f"Its stages were dropped ({len(dropped)} relation(s))." if dropped else "It built no stages."


def _record_plan_failed(runner: DbtRunner, node: ModelNode, run_id: str, failure: Exception) -> None:
    """A failed or refused plan is `plan_failed` in the audit trail, with its reason (best effort: the database may
    be what failed). Never `planned`: that row means a packet was written."""
    reason = getattr(failure, "reason", None) or (
        failure.cause.kind
        if getattr(failure, "cause", None)
        else "interrupted"
        if isinstance(failure, Interrupted)
        else "error"
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
    partitions: tuple[str, ...],
    run_id: str,
    now: dt.datetime,
    path: Path,
) -> PlanResult:
    code = {
        **node.binding,
        "git_commit": _git_commit(runner.options.project_dir),
        "dbt_backfill_version": __version__,
        "dbt_version": node.dbt_version,
    }
    invocation = runner.run_operation(
        "plan_stages",
        {
            "model": node.name,
            "run_id": run_id,
            "target": node.relation.to_dict(),
            "model_sql": node.compiled_sql,
            "partition_by": spec.partition_by,
            "business_key": list(spec.business_key),
            "partitions": list(partitions),
            "from_ranges": values_from_ranges(request.partitions),
            "order_by": list(spec.order_by),
            "additive": list(spec.additive),
            "exclude_columns": list(spec.exclude_columns),
            "stage_schema": spec.stage_schema,
            "watermark": dict(spec.watermark) if spec.watermark else None,
            "checks": [dict(c) for c in spec.checks],
            "cost_warning": dict(spec.cost_warning),
            "approval_ttl": spec.approval_ttl,
            "input_window": dict(spec.input_window) if spec.input_window is not None else None,
            "window_proof_max_age": spec.window_proof_max_age,
            "prove_window": request.prove_window,
            "allowances": {
                k: v
                for k, v in (
                    ("empty_partitions", request.allow_empty),
                    ("watermark_move", request.allow_watermark_move),
                    ("table_model", request.allow_table),
                )
                if v
            },
            "code": code,
            "batch_size": request.batch_size,
            "commands": _commands(path, node.name),
        },
    )
    result = invocation.first("plan")
    if result is None:
        raise BackfillError("the plan_stages operation returned no result; nothing was changed.")
    if result["package_version"] != __version__:
        raise BackfillError(
            f"the dbt package dbt_backfill installed in the project is version "
            f"{result['package_version']}, this CLI is {__version__}: align them (packages.yml, "
            f"dbt deps). No packet was written and the target is unchanged."
        )

    planned = []
    for item in result["partitions"]:
        builds = {k: Fingerprint.from_dict(v) for k, v in item["builds"].items()}
        planned.append(
            PartitionPlan(
                value=str(item["value"]),
                stage=RelationRef.from_dict(item["stage"]),
                stage_b=RelationRef.from_dict(item["stage_b"]),
                backup=RelationRef.from_dict(item["backup"]),
                builds=builds,
                fingerprint=builds["a"],
                target_before=Fingerprint.from_dict(item["target_before"]),
                changes=Changes.from_dict(item["changes"]),
                commitment=str(item["commitment"]),
                target_before_commitment=str(item["target_before_commitment"]),
            )
        )
    _check_builds(planned, result["stage_schema"], request.allow_empty)
    if result.get("nothing_to_change"):  # every partition equals its build, fingerprint and commitment (_plan)
        raise _AllEqual(planned)
    _check_keys_and_watermark(result, spec.business_key, request.allow_watermark_move)
    allowances: dict[str, Any] = {}
    if request.allow_table and node.materialized == "table":
        allowances["table_model"] = {"reason": request.allow_table}
    if result["emptied"]:
        allowances["empty_partitions"] = {"partitions": result["emptied"], "reason": request.allow_empty}
    if result.get("watermark") and result["watermark"]["raised"]:
        allowances["watermark_move"] = {"reason": request.allow_watermark_move}

    packet = Packet(
        run_id=run_id,
        created_at=now.isoformat(timespec="seconds"),
        model=node.name,
        target=RelationRef.from_dict(result["target"]),
        adapter=result["adapter"],
        dbt_target=runner.options.target,
        partition_by=spec.partition_by,
        business_key=spec.business_key,
        order_by=spec.order_by,
        additive=spec.additive,
        exclude_columns=spec.exclude_columns,
        material_columns=tuple(result["material_columns"]),
        code=code,
        source=result["source"],
        partitions=tuple(planned),
        watermark={"config": dict(spec.watermark), **result["watermark"]} if result.get("watermark") else None,
        allowances=allowances,
        review=result["review"],
        cost=result["cost"],
        gates=tuple(result["gates"]),
        control=result["control"],
        # each downstream model bound by what it runs, compiled with the root (code_binding): a cascade approves its
        # plan in the root approver's name only while that is unchanged
        downstream=tuple(
            {**entry, "binding": dict(node.downstream_bindings.get(entry["unique_id"], {}))}
            for entry in result["downstream"]
        ),
        batch_size=request.batch_size,
        cascade_of=dict(request.cascade_of) if request.cascade_of else None,
        expires_at=result["expires_at"],
    )
    document = plan_document_path(path)
    markdown = (
        f"{result['markdown'].rstrip()}\n\n---\nThis plan describes packet `{path.name}`, SHA-256 "
        f"`{packet.sha256()}`: an approval binds to exactly that content.\n"
    )
    with _finishing("the plan writes its packet and records it"):
        packet.write(path)
        # The plan's record of what it wrote: apply, rollback and clean refuse a packet whose content no plan wrote
        # (an edited packet re-hashed to match a copied approval has no such row).
        runner.run_operation(
            "audit_event",
            {
                "target": packet.target.to_dict(),
                "event": "planned",
                "run_id": run_id,
                "fields": {
                    "model": node.name,
                    "packet_sha256": packet.sha256(),
                    "outcome": packet.review["verdict"],
                    "fingerprint_after": [p.fingerprint.sha256 for p in planned],
                    "detail": f"{', '.join(p.value for p in planned)} ({path})",
                },
            },
        )
        document.write_text(markdown)
    if packet.failed_gates:
        described = "; ".join(
            f"{g['check']} on {g['partition']}: {g['observed']}, expected {g['expected']}" for g in packet.failed_gates
        )
        raise BackfillRefused(
            "gate_failed",
            f"reconciliation gate(s) of meta.backfill.checks failed ({described}). The packet and plan are written "
            f"for review ({path}, {document}); approve and apply refuse it. The target is unchanged.",
            {"packet": str(path), "gates": packet.failed_gates},
        )
    if packet.blocking_checks:
        described = "; ".join(f"{c['check']}: {c['finding']}" for c in packet.blocking_checks)
        raise BackfillRefused(
            "review_blocked",
            f"the review judged the plan BLOCK ({described}). The packet and plan are written for review ({path}, "
            f"{document}); approve and apply refuse it. The target is unchanged.",
            {"packet": str(path), "checks": packet.blocking_checks},
        )
    return PlanResult(
        packet=packet,
        path=path,
        markdown=markdown,
        skipped_in_ranges=tuple(str(v) for v in result.get("skipped_in_ranges") or ()),
    )


def plan_document_path(packet_path: Path) -> Path:
    """The written plan (Markdown) beside its packet."""
    return packet_path.with_suffix(".md")


def _commands(path: Path, model: str) -> dict[str, str]:
    """The next steps as the plan document names them: this CLI's commands on this packet."""
    return {
        "approve": f"`dbt-backfill approve {path} --by <name>`",
        "apply": f"`dbt-backfill apply {path}`",
        "verify": f"`dbt-backfill verify {path}`",
        "rollback": f"`dbt-backfill rollback {path}`",
        "history": f"`dbt-backfill history {model}`",
    }
