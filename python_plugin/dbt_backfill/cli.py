"""The `dbt-backfill` command: parse, call the workflow, print, exit. Exit status: 0 done; 3 a safety refusal
(the target is unchanged unless the message says otherwise); 4 `apply --cascade` applied the root but left a
downstream model that differs from a full build of it (named, with the command that repairs it); 1 bad input or configuration, or the database
failed (the message names its cause); 2 usage; 130 interrupted (Ctrl-C, SIGTERM). After apply or rollback stop
short, the target's state is read afresh and printed, never inferred."""

from __future__ import annotations

import json
import sys
from collections.abc import Mapping
from functools import wraps
from pathlib import Path
from typing import Any, Callable

import click
from click.core import ParameterSource

from dbt_backfill import __version__
from dbt_backfill.dbt_runner import DbtOptions, DbtRunner, default_project_dir, redact
from dbt_backfill.demo import run_demo
from dbt_backfill.errors import BackfillError, BackfillRefused, Interrupted
from dbt_backfill.fingerprint import Fingerprint
from dbt_backfill.packet import Packet, file_sha256
from dbt_backfill.shown import shown
from dbt_backfill.workflow.apply import apply as apply_packet
from dbt_backfill.workflow.approve import approve as approve_packet
from dbt_backfill.workflow.audit import history as read_history
from dbt_backfill.workflow.cascade import apply_cascade
from dbt_backfill.workflow.clean import clean as clean_run
from dbt_backfill.workflow.clean import clean_relations, parse_older_than
from dbt_backfill.workflow.ledger import read_ledger
from dbt_backfill.workflow.plan import (
    NothingToChange,
    PlanRequest,
    parse_partitions,
    plan_document_path,
    read_partitions_file,
)
from dbt_backfill.workflow.plan import (
    plan as plan_backfill,
)
from dbt_backfill.workflow.rollback import rollback as rollback_packet
from dbt_backfill.workflow.status import TargetState
from dbt_backfill.workflow.status import status as read_status
from dbt_backfill.workflow.verify import verify as verify_packet

SEVERITY = {"block": "BLOCK", "warn": "WARN", "unknown": "UNKNOWN", "ok": "ok"}
EXIT_REFUSED = 3
EXIT_ERROR = 1
EXIT_INTERRUPTED = 130
# apply --cascade: the root is applied, but a model downstream of it still differs from a full build of it
EXIT_DOWNSTREAM_STALE = 4


def dbt_options(command: Callable) -> Callable:
    options = [
        # as dbt takes them: the option, else its environment variable, else dbt's own default
        click.option(
            "--project-dir",
            type=click.Path(file_okay=False, path_type=Path),
            envvar="DBT_PROJECT_DIR",
            default=None,
            help="The dbt project (else DBT_PROJECT_DIR, else the nearest directory up from "
            "here holding a dbt_project.yml, as dbt finds it).",
        ),
        click.option(
            "--profiles-dir",
            type=click.Path(file_okay=False, path_type=Path),
            envvar="DBT_PROFILES_DIR",
            default=None,
            help="Where profiles.yml is (else DBT_PROFILES_DIR, else dbt's own default).",
        ),
        click.option(
            "--target",
            "dbt_target",
            envvar="DBT_TARGET",
            default=None,
            help="The dbt target (profile output; else DBT_TARGET, else the profile's default).",
        ),
        click.option("--vars", "dbt_vars", default=None, help="dbt --vars, as YAML."),
    ]
    for option in reversed(options):
        command = option(command)
    return command


def json_option(command: Callable) -> Callable:
    return click.option("--json", "as_json", is_flag=True, help="Print the machine-readable result on stdout.")(command)


def runner_from(
    project_dir: Path | None, profiles_dir: Path | None, dbt_target: str | None, dbt_vars: str | None
) -> DbtRunner:
    project_dir = (project_dir or default_project_dir()).resolve()
    if not (project_dir / "dbt_project.yml").is_file():
        looked = (
            f"in {project_dir}"
            if project_dir != Path.cwd().resolve()
            else f"in {project_dir} and every directory above it"
        )
        raise BackfillError(
            f"no dbt project found: no dbt_project.yml {looked}. Run dbt-backfill inside your dbt "
            f"project, or name it with --project-dir (or DBT_PROJECT_DIR). Nothing was read or "
            f"written."
        )
    return DbtRunner(
        DbtOptions(
            project_dir=project_dir,
            profiles_dir=profiles_dir.resolve() if profiles_dir else None,
            target=dbt_target,
            vars=dbt_vars,
        )
    )


def handles_outcomes(command: Callable) -> Callable:
    """Map the workflow's exceptions to one line on stderr and the documented exit status."""

    @wraps(command)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        as_json = kwargs.get("as_json", False)
        try:
            return command(*args, **kwargs)
        except BackfillRefused as refused:
            _fail(
                f"refused: {refused}",
                EXIT_REFUSED,
                as_json,
                {"status": "refused", "reason": refused.reason, "message": str(refused), "details": refused.details},
                refused.state,
            )
        except Interrupted as interrupted:
            _fail(
                f"interrupted: {interrupted}",
                EXIT_INTERRUPTED,
                as_json,
                {"status": "interrupted", "message": str(interrupted)},
                interrupted.state,
            )
        except KeyboardInterrupt:  # outside apply and rollback, which read the state first (Interrupted)
            _fail("interrupted (Ctrl-C): the command stopped.", EXIT_INTERRUPTED, as_json, {"status": "interrupted"})
        except BackfillError as error:
            _fail(
                f"error: {error}",
                EXIT_ERROR,
                as_json,
                {"status": "error", "cause": error.cause.kind if error.cause else None, "message": str(error)},
                error.state,
            )

    return wrapper


def _fail(line: str, code: int, as_json: bool, payload: dict, state: TargetState | None = None) -> None:
    if state is not None:
        line = f"{line}\n{_state_text(state)}"
        payload = {**payload, "state": state.to_dict()}
    click.echo(redact(line), err=True)
    if as_json:
        click.echo(redact(json.dumps(payload, default=str)))
    sys.exit(code)


def _state_text(state: TargetState) -> str:
    """The state table, as read from the database (or that it could not be read), and the next command."""
    if state.unreadable is not None and state.read_refused:
        # the same refusal stops the read: said once, above, not again as an outage
        return f"State not read: the refusal above stops that read too. Next: {state.next_step}."
    if state.unreadable is not None:
        return (
            f"State unknown: {state.unreadable}, so what the target holds could not be read. Run "
            f"`dbt-backfill status {state.path}` when it is back."
        )
    rows = [
        [
            p.value,
            p.state + (" (= as before)" if p.unchanged_by_the_repair and p.state == "as approved" else ""),
            str(p.fingerprint.row_count),
            p.fingerprint.short,
        ]
        for p in state.partitions
    ]
    return (
        f"State of {state.packet.target}, read now:\n"
        + _table(["partition", "state", "rows", "sha256"], rows)
        + f"\nNext: {state.next_step}."
    )


def _short(value: Any) -> str:
    text = str(value)
    return text[:12] + "…" if len(text) == 64 else text


def _totals(fingerprint: Fingerprint) -> str:
    return ", ".join(f"{k} {v}" for k, v in fingerprint.totals.items()) or "-"


def _table(headers: list[str], rows: list[list[str]]) -> str:
    widths = [max(len(str(x)) for x in column) for column in zip(headers, *rows)]

    def line(cells):
        return "  ".join(str(c).ljust(w) for c, w in zip(cells, widths)).rstrip()

    return "\n".join([line(headers), line(["-" * w for w in widths]), *(line(r) for r in rows)])


def _print_plan(packet: Packet, path: Path, skipped_in_ranges: tuple[str, ...] = ()) -> None:
    rows = []
    for p in packet.partitions:
        a, b = p.builds["a"], p.builds["b"]
        rows.append(
            [
                p.value,
                str(a.row_count),
                _totals(a),
                a.short,
                b.short,
                "yes" if a == b else "NO",
                str(p.target_before.row_count),
                _totals(p.target_before),
                f"+{p.changes.added} -{p.changes.removed} ~{p.changes.changed}",
            ]
        )
    click.echo(f"Backfill plan {packet.run_id} for {packet.model} ({packet.target}), by {packet.partition_by}")
    if skipped_in_ranges:
        click.echo(
            f"Left out of the range(s): {len(skipped_in_ranges)} value(s) with no rows in the target or in the "
            f"model's output, found before anything was built: {_compressed(skipped_in_ranges)}"
        )
    click.echo(
        f"Source pinned: {len(packet.source['relations'])} relation(s) read twice before and once after the "
        f"builds, unchanged: {', '.join(packet.source['relations']) or 'none'}"
    )
    click.echo(_input_windows(packet.source.get("windows") or {}))
    if packet.watermark:
        before, after = packet.watermark["before"], packet.watermark["after"]
        where = before.get("column") or before.get("relation") or "query"
        if after is None:
            outcome = "apply checks it is unchanged with every partition it replaces"
        elif packet.watermark["raised"]:
            outcome = (
                f"{_short(after['value'])} after: RAISED, allowed ({packet.allowances['watermark_move']['reason']})"
            )
        else:
            outcome = f"{_short(after['value'])} after, untouched"
        click.echo(f"Live job's watermark ({before['kind']} {where}): {_short(before['value'])} before; {outcome}")
    for name, allowance in packet.allowances.items():
        if name == "empty_partitions":
            click.echo(f"Allowed to empty partition(s) {', '.join(allowance['partitions'])}: {allowance['reason']}")
    click.echo(
        _table(
            [
                "partition",
                "rows",
                "totals",
                "build a sha256",
                "build b sha256",
                "a = b",
                "target rows",
                "target totals",
                "changes",
            ],
            rows,
        )
    )
    samples = [(p.value, s) for p in packet.partitions for s in p.changes.sample]
    if samples:
        click.echo("Changed rows (sample):")
        for value, sample in samples:
            changes = ", ".join(
                f"{shown(c)} {shown(v['old'])} -> {shown(v['new'])}" for c, v in sample["columns"].items()
            )
            click.echo(f"  {shown(value)}  {', '.join(packet.business_key)}={shown(sample['key'])}: {changes}")
    # as the written plan lists them: the keys the repair adds to or removes from each partition (a sample)
    for kind, keys_of in (("Added", lambda p: p.changes.added_keys), ("Removed", lambda p: p.changes.removed_keys)):
        listed = [
            (p.value, keys_of(p), p.changes.added if kind == "Added" else p.changes.removed)
            for p in packet.partitions
            if keys_of(p)
        ]
        if listed:
            click.echo(f"{kind} keys (sample):")
            for value, keys, count in listed:
                more = f" (of {count})" if count > len(keys) else ""
                click.echo(
                    f"  {shown(value)}  {', '.join(packet.business_key)}: {', '.join(shown(k) for k in keys)}{more}"
                )
    click.echo(f"Review: {packet.review['verdict']} — {packet.review['reason']}")
    for check in packet.review["checks"]:
        click.echo(f"  {check['number']}. {SEVERITY[check['severity']]:<7} {check['check']}: {check['finding']}")
    if packet.cost.get("over"):
        click.echo(f"Cost warning: {'; '.join(packet.cost['over'])}")
    if packet.downstream:
        click.echo("Downstream (in order): " + ", ".join(f"{d['model']} ({_mapping(d)})" for d in packet.downstream))
    click.echo(
        f"Packet written: {path}  (sha256 {packet.sha256()[:12]}…); the written plan: {plan_document_path(path)}"
    )
    click.echo(f"Nothing in the target has changed. Review the packet, then: dbt-backfill approve {path} --by <name>")
    click.echo(
        f"Apply by {packet.expires_at} (meta.backfill.approval_ttl after the plan): later, apply refuses this "
        f"packet and it must be planned again."
    )


def _compressed(values: tuple[str, ...], shown_at_most: int = 12) -> str:
    """Values as a person reads a long list: the first ones, then how many more."""
    listed = ", ".join(shown(v) for v in values[:shown_at_most])
    return listed + (f" and {len(values) - shown_at_most} more" if len(values) > shown_at_most else "")


def _input_windows(windows: Mapping[str, Any]) -> str:
    """The plan's one line on what its builds read of the inputs (the packet's source.windows)."""
    if windows.get("mode") != "windowed":
        return f"Input windows: none ({windows.get('why') or 'not recorded'})"
    inputs = ", ".join(f"{i['relation']} by {i['event_time']}" for i in windows["inputs"])
    whole = f"; read whole: {', '.join(windows['whole'])}" if windows.get("whole") else ""
    return (
        f"Input windows ({windows['declared_by']}: {windows['before']} day(s) before, {windows['after']} after): "
        f"{inputs}{whole}; {windows.get('evidence') or 'evidence not recorded'}"
    )


def _mapping(downstream) -> str:
    reach = downstream.get("reach") or {}
    if downstream["mapping"] != "same_partitions" or not reach.get("declared_by"):
        return downstream["mapping"]
    sides = ", ".join(f"{reach[side]} {side}" for side in ("before", "after") if reach.get(side))
    return f"same_partitions, reach {sides or '0'} by {reach['declared_by']}"


@click.group()
@click.version_option(__version__, prog_name="dbt-backfill")
def main() -> None:
    """Repair published partitions of a dbt model: plan, approve, apply, verify."""


@main.command()
@click.argument("model")
@click.option(
    "--partitions",
    default=None,
    help="Comma-separated partition values, each a value or an inclusive range of dates or integers: "
    "2026-03-01,2026-03-02 or 2026-01-01..2026-03-31 or 1..12.",
)
@click.option(
    "--partitions-file",
    type=click.Path(dir_okay=False, exists=True, path_type=Path),
    default=None,
    help="A file of partition values (or ranges), one per line; blank lines are skipped.",
)
@click.option(
    "--out",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="Where to write the packet (default: <project>/backfills/<model>__<run_id>.yml).",
)
@click.option("--partition-by", default=None, help="Override meta.backfill.partition_by.")
@click.option("--business-key", default=None, help="Override meta.backfill.business_key (comma-separated).")
@click.option("--order-by", default=None, help="Override meta.backfill.order_by (comma-separated).")
@click.option("--additive", default=None, help="Override meta.backfill.additive (comma-separated).")
@click.option("--exclude-columns", default=None, help="Override meta.backfill.exclude_columns (comma-separated).")
@click.option(
    "--watermark-column",
    default=None,
    help="Override meta.backfill.watermark with {column: COL}: the live job resumes from max(COL).",
)
@click.option(
    "--allow-empty",
    metavar="REASON",
    default=None,
    help="Allow emptying a partition the target holds rows for; the reason is recorded in the packet.",
)
@click.option(
    "--allow-watermark-move",
    metavar="REASON",
    default=None,
    help="Allow raising the live job's column watermark; the reason is recorded in the packet.",
)
@click.option(
    "--allow-table",
    metavar="REASON",
    default=None,
    help="Plan a model materialized as a table (its next run rebuilds it whole); the reason is recorded in the packet.",
)
@click.option(
    "--batch-size",
    type=click.IntRange(min=1),
    default=5,
    show_default=True,
    help="Partitions per batch after the canary (apply checks the target after each batch).",
)
@click.option(
    "--prove-window",
    type=click.Choice(["full"]),
    default=None,
    help="Prove the input windows over the whole history in this plan, whatever proof is recorded "
    "(otherwise: on the model's first plan, after its code changes, a failed proof or "
    "meta.backfill.window_proof_max_age).",
)
@click.option(
    "--format",
    "output_format",
    type=click.Choice(["text", "md"]),
    default="text",
    show_default=True,
    help="text: a summary; md: the written plan (also saved beside the packet as .md).",
)
@dbt_options
@json_option
@handles_outcomes
def plan(
    model,
    partitions,
    partitions_file,
    out,
    partition_by,
    business_key,
    order_by,
    additive,
    exclude_columns,
    watermark_column,
    allow_empty,
    allow_watermark_move,
    allow_table,
    batch_size,
    prove_window,
    output_format,
    project_dir,
    profiles_dir,
    dbt_target,
    dbt_vars,
    as_json,
) -> None:
    """Build MODEL's PARTITIONS twice from a pinned source, compare, review, and write the approval packet and the
    written plan."""
    if (partitions is None) == (partitions_file is None):
        raise click.UsageError("give the partitions with exactly one of --partitions and --partitions-file.")
    values = partitions if partitions is not None else read_partitions_file(partitions_file)
    # parsed once, here: the plan gets the expanded values, and the person sees what they came to before it runs
    expanded = parse_partitions(values)
    if partitions_file or ".." in partitions or '"' in partitions:
        # the plan below checks each value with the column's own cast
        click.echo(
            f"Partitions: {len(expanded)} value(s), {expanded[0]} … {expanded[-1]}"
            f"{' (from ' + str(partitions_file) + ')' if partitions_file else ''}.",
            err=as_json,
        )
    runner = runner_from(project_dir, profiles_dir, dbt_target, dbt_vars)
    overrides = {
        "partition_by": partition_by,
        "business_key": business_key,
        "order_by": order_by,
        "additive": additive,
        "exclude_columns": exclude_columns,
        "watermark": watermark_column,
    }
    # the items as given: a value only a range names may be left out by the plan when no side holds it
    result = plan_backfill(
        runner,
        PlanRequest(
            model=model,
            partitions=values,
            out=out,
            overrides=overrides,
            allow_empty=allow_empty,
            allow_watermark_move=allow_watermark_move,
            allow_table=allow_table,
            batch_size=batch_size,
            prove_window=prove_window,
        ),
    )
    if isinstance(result, NothingToChange):
        if as_json:
            click.echo(
                json.dumps(
                    {
                        "status": "nothing_to_change",
                        "model": result.model,
                        "run_id": result.run_id,
                        "partitions": list(result.partitions),
                        "message": result.message,
                    }
                )
            )
        else:
            click.echo(result.message)
        return
    if as_json:
        click.echo(
            json.dumps(
                {
                    "status": "planned",
                    "packet": str(result.path),
                    "packet_sha256": result.packet.sha256(),
                    "plan_document": str(plan_document_path(result.path)),
                    **result.packet.to_dict(),
                },
                default=str,
            )
        )
    elif output_format == "md":
        click.echo(result.markdown, nl=False)
    else:
        _print_plan(result.packet, result.path, result.skipped_in_ranges)


@main.command()
@click.argument("packet", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--by", "by", required=True, help="Who approves (recorded in the packet).")
@click.option(
    "--despite",
    metavar="REASON",
    default=None,
    help="Approve a packet its review judged RESTRUCTURE FIRST, saying why (recorded with the approval).",
)
@dbt_options
@json_option
@handles_outcomes
def approve(packet, by, despite, project_dir, profiles_dir, dbt_target, dbt_vars, as_json) -> None:
    """Approve the exact content of PACKET (binds to its SHA-256). Given --project-dir, --profiles-dir or --target,
    it also records the approval in the target's audit trail; else the first apply does."""
    context = click.get_current_context()
    reaches = any(
        context.get_parameter_source(name) != ParameterSource.DEFAULT
        for name in ("project_dir", "profiles_dir", "dbt_target")
    )
    runner = (
        runner_from(project_dir, profiles_dir, dbt_target or Packet.read(packet).dbt_target, dbt_vars)
        if reaches
        else None
    )
    approved, recorded = approve_packet(packet, by, runner=runner, despite=despite)
    if as_json:
        click.echo(json.dumps({"status": "approved", "recorded": recorded is None, **approved.approval.to_dict()}))
        return
    document = plan_document_path(Path(packet))
    reviewed = ""
    if document.exists():
        names_it = approved.approval.packet_sha256 in document.read_text(errors="replace")
        reviewed = f" The written plan {document} (sha256 {file_sha256(document)}) " + (
            "names this packet's SHA-256."
            if names_it
            else "does NOT name this packet's SHA-256: it is not this packet's plan."
        )
    if runner is None:
        trail = " The first apply records the approval in the audit trail, with this time."
    elif recorded is None:
        trail = f" Recorded in the audit trail of {approved.target}."
    else:
        trail = f" Not recorded in the audit trail ({recorded}): the first apply records it, with this time."
    review = approved.review
    verdict = f" Its review: {review.get('verdict')} ({review.get('reason')})" + (
        f"; approved despite it: {approved.approval.despite}." if approved.approval.despite else "."
    )
    click.echo(
        f"Approved by {approved.approval.approved_by}: packet sha256 {approved.approval.packet_sha256}."
        f"{verdict}{reviewed}{trail} Any later edit voids this approval. Apply by {approved.expires_at}. "
        f"Next: dbt-backfill apply {packet}"
    )


@main.command()
@click.option(
    "--dir",
    "directory",
    type=click.Path(file_okay=False, path_type=Path),
    default=Path("dbt_backfill_demo"),
    show_default=True,
    help="Where to build the demo project (replaced if it is an earlier demo).",
)
@handles_outcomes
def demo(directory) -> None:
    """Play the seed scenario end to end on a local DuckDB file (no server): plan, approve, apply, verify."""
    sys.exit(run_demo(directory, click.echo))


def packet_command(*extra_options: Callable) -> Callable:
    """A command on an existing packet that talks to the database: PACKET, dbt options, --json, and
    `extra_options` (passed on by name). The dbt target defaults to the one the packet was planned with."""

    def decorate(command: Callable) -> Callable:
        @wraps(command)
        def wrapper(packet, project_dir, profiles_dir, dbt_target, dbt_vars, as_json, **options):
            runner = runner_from(project_dir, profiles_dir, dbt_target or Packet.read(packet).dbt_target, dbt_vars)
            return command(runner, packet, as_json, **options)

        wrapper = handles_outcomes(json_option(dbt_options(wrapper)))
        for option in reversed(extra_options):
            wrapper = option(wrapper)
        return main.command(name=command.__name__)(
            click.argument("packet", type=click.Path(dir_okay=False, path_type=Path))(wrapper)
        )

    return decorate


def by_option(what: str) -> Callable:
    return click.option(
        "--by", "by", default=None, help=f"Who {what} (recorded in the audit trail; default: the OS user)."
    )


@main.command()
@click.argument("packet", type=click.Path(dir_okay=False, path_type=Path))
@click.option(
    "--batch-size",
    type=click.IntRange(min=1),
    default=None,
    help="Partitions per batch after the canary (default: the packet's).",
)
@click.option(
    "--cascade",
    is_flag=True,
    help="Then rebuild the downstream models the packet lists, in order, each behind its own gates.",
)
@click.option(
    "--allow-source-drift",
    metavar="REASON",
    default=None,
    help="Apply although the source changed since the plan; the reason is recorded in the audit trail.",
)
@dbt_options
@json_option
@handles_outcomes
def apply(
    packet, batch_size, cascade, allow_source_drift, project_dir, profiles_dir, dbt_target, dbt_vars, as_json
) -> None:
    """Replace the approved partitions of PACKET, one transaction each (Spark: one swap of the partition's directory each): the canary first, then batches, with the
    target and a control partition checked after each."""
    runner = runner_from(project_dir, profiles_dir, dbt_target or Packet.read(packet).dbt_target, dbt_vars)
    left: tuple = ()
    if cascade:
        cascaded = apply_cascade(runner, packet, batch_size, allow_source_drift=allow_source_drift)
        result, steps, left = cascaded.root, cascaded.steps, cascaded.left_stale
    else:
        result, steps = apply_packet(runner, packet, batch_size, allow_source_drift), ()
    if as_json:
        click.echo(
            json.dumps(
                {
                    "status": "applied_downstream_stale" if left else "applied",
                    "run_id": result.packet.run_id,
                    "skipped": list(result.skipped),
                    "checkpoints": list(result.checkpoints),
                    "replaced": [
                        {"value": r.value, "before": r.before.to_dict(), "after": r.after.to_dict()}
                        for r in result.replaced
                    ],
                    "cascade": [
                        {
                            "model": s.model,
                            "outcome": s.outcome,
                            "detail": s.detail,
                            "packet": str(s.packet) if s.packet else None,
                        }
                        for s in steps
                    ],
                }
            )
        )
        if left:
            sys.exit(EXIT_DOWNSTREAM_STALE)
        return
    _print_applied(result)
    for step in steps:
        click.echo(
            f"Cascade: {step.model} {step.outcome.replace('_', ' ')}: {step.detail}"
            f"{' (packet ' + str(step.packet) + ')' if step.packet else ''}"
        )
    if left:
        # the root is applied and stays so; a downstream model still differs from a full build of it
        click.echo(
            f"root applied, downstream left to you: {'; '.join(f'{s.model}: {s.detail}' for s in left)}.", err=True
        )
        sys.exit(EXIT_DOWNSTREAM_STALE)


def _print_applied(result) -> None:
    rows = [
        [r.value, str(r.before.row_count), _totals(r.before), str(r.after.row_count), _totals(r.after), r.after.short]
        for r in result.replaced
    ]
    if result.replaced:
        click.echo(
            f"Applied {result.packet.run_id} to {result.packet.target}: each partition replaced whole and "
            f"equal to the approved fingerprint when read back."
        )
    else:
        click.echo(
            f"Applied {result.packet.run_id} to {result.packet.target}: nothing replaced, every partition "
            f"already equals the approval (read now)."
        )
    if result.skipped:
        click.echo(
            f"Already equal to the approval, skipped (nothing to change there, or an earlier apply got this "
            f"far): {', '.join(result.skipped)}"
        )
    for value, note in result.skipped_notes.items():
        click.echo(f"  {shown(value)}: {note}")
    for checkpoint in result.checkpoints:
        control = f"; control {checkpoint['control']} unchanged" if checkpoint.get("control") else ""
        click.echo(
            f"Checkpoint after the {checkpoint['label']}: {', '.join(checkpoint['partitions'])} read back equal "
            f"to the approval{control}"
        )
    if rows:
        click.echo(_table(["partition", "rows before", "totals before", "rows after", "totals after", "sha256"], rows))


@packet_command()
def verify(runner: DbtRunner, packet: Path, as_json: bool) -> None:
    """Check that the target's partitions still equal PACKET's approved fingerprints."""
    result = verify_packet(runner, packet)
    if as_json:
        click.echo(
            json.dumps(
                {
                    "status": "rolled_back" if result.rolled_back else "verified",
                    "rolled_back": result.rolled_back,
                    "backups_dropped": result.backups_dropped,
                    "partitions": [{"value": c.value, "fingerprint": c.actual.to_dict()} for c in result.checks],
                }
            )
        )
        return
    if result.rolled_back:
        click.echo(
            f"Rolled back at {result.rolled_back['at']} by {result.rolled_back['by']} (the audit trail): every "
            f"partition of {result.packet.target} holds its rows from before the apply, as read now."
        )
        click.echo(
            _table(
                ["partition", "rows", "totals", "sha256"],
                [[c.value, str(c.actual.row_count), _totals(c.actual), c.actual.short] for c in result.checks],
            )
        )
        return
    click.echo(f"Verified {result.packet.target}: every partition equals its approved fingerprint.")
    if result.backups_dropped:
        click.echo(
            f"Its backups were dropped by {result.backups_dropped['how']} at {result.backups_dropped['at']} "
            f"(by {result.backups_dropped['by']}), as the audit trail records it: this run can no longer be "
            f"rolled back."
        )
    click.echo(
        _table(
            ["partition", "rows", "totals", "sha256"],
            [[c.value, str(c.actual.row_count), _totals(c.actual), c.actual.short] for c in result.checks],
        )
    )


@packet_command(by_option("rolls back"))
def rollback(runner: DbtRunner, packet: Path, as_json: bool, by: str | None) -> None:
    """Restore PACKET's replaced partitions from their backups, one transaction each (Spark: a swap back to the old directory each)."""
    result = rollback_packet(runner, packet, by)
    if as_json:
        click.echo(
            json.dumps(
                {
                    "status": "rolled_back",
                    "restored": list(result.restored),
                    "skipped": list(result.skipped),
                    "not_this_runs": dict(result.not_this_runs),
                }
            )
        )
        return
    click.echo(
        f"Rolled back {result.packet.run_id} on {result.packet.target}: restored "
        f"{', '.join(result.restored) or 'nothing'}, each equal to its fingerprint before the apply"
        f"{'; already as before: ' + ', '.join(result.skipped) if result.skipped else ''}."
    )
    for value, why in result.not_this_runs.items():
        click.echo(f"Left {shown(value)} as it is, {why}.")


@packet_command()
def status(runner: DbtRunner, packet: Path, as_json: bool) -> None:
    """What each partition PACKET names holds now, read from the database: as approved, as before, or neither; and
    the command to run next. Reads only (but an audit table from an earlier version is brought up to date once,
    when its owner runs it)."""
    state = read_status(runner, packet)
    if as_json:
        click.echo(json.dumps({"status": "read", **state.to_dict()}))
        return
    click.echo(_state_text(state))


@main.command()
@click.argument("packet", required=False, type=click.Path(dir_okay=False, path_type=Path))
@click.option(
    "--run",
    "run_id",
    default=None,
    metavar="RUN_ID",
    help="Clean one run by its id, without its packet (a failed or killed plan's stages, say).",
)
@click.option(
    "--orphans",
    is_flag=True,
    help="List the relations of every run that no packet needs (from the audit trail); --yes drops them.",
)
@click.option(
    "--older-than",
    default="1d",
    show_default=True,
    help="With --orphans: only runs whose plan began longer ago than this (7d, 12h, 30m).",
)
@click.option("--yes", is_flag=True, help="With --orphans: drop what the list marks `drop` (without it: list only).")
@click.option(
    "--drop-backups",
    is_flag=True,
    help="With PACKET or --run: drop the backups too, even while a rollback is still possible.",
)
@by_option("cleans")
@dbt_options
@json_option
@handles_outcomes
def clean(
    packet, run_id, orphans, older_than, yes, drop_backups, by, project_dir, profiles_dir, dbt_target, dbt_vars, as_json
) -> None:
    """Drop stage and backup relations dbt-backfill created: PACKET's (backups kept while a rollback is possible),
    one run's (--run RUN_ID), or those of every run that no packet needs (--orphans)."""
    if sum(bool(x) for x in (packet, run_id, orphans)) != 1:
        raise click.UsageError("name what to clean: a PACKET, --run RUN_ID or --orphans (exactly one).")
    if (yes or older_than != "1d") and not orphans:
        raise click.UsageError("--yes and --older-than go with --orphans.")
    if drop_backups and orphans:
        raise click.UsageError(
            "--orphans never drops a backup a rollback may need: clean that run with its packet, "
            "or --run RUN_ID --drop-backups."
        )
    if packet:
        runner = runner_from(project_dir, profiles_dir, dbt_target or Packet.read(packet).dbt_target, dbt_vars)
        cleaned = clean_run(runner, packet, drop_backups, by)
        if as_json:
            click.echo(
                json.dumps(
                    {
                        "status": "cleaned",
                        "dropped": list(cleaned.dropped),
                        "deleted_directories": list(cleaned.deleted_directories),
                    }
                )
            )
        else:
            click.echo(f"Dropped {len(cleaned.dropped)} relation(s): {', '.join(cleaned.dropped) or 'none'}")
            if cleaned.deleted_directories:
                click.echo(
                    f"Deleted {len(cleaned.deleted_directories)} directory(ies) the table no longer reads: "
                    f"{', '.join(cleaned.deleted_directories)}"
                )
        return
    runner = runner_from(project_dir, profiles_dir, dbt_target, dbt_vars)
    hours = parse_older_than(older_than)
    found = clean_relations(
        runner, run_id=run_id, older_than_hours=hours, drop=bool(run_id) or yes, drop_backups=drop_backups, by=by
    )
    if as_json:
        click.echo(
            json.dumps({"status": "cleaned" if run_id or yes else "listed", "relations": [f.to_dict() for f in found]})
        )
        return
    dropped = [f.relation for f in found if f.action == "dropped"]
    kept = [f for f in found if f.action == "keep"]
    if run_id:
        click.echo(
            f"Run {run_id}: dropped {len(dropped)} relation(s): {', '.join(dropped) or 'none'}"
            + ("" if found else " (the audit trail records no relations of this run, or none is left)")
        )
        for f in kept:
            click.echo(f"  kept {f.relation} ({f.kind}): {f.reason}")
        return
    if not found:
        click.echo("No relation dbt-backfill created is left in the stage schemas the audit trail records.")
        return
    click.echo(
        _table(
            ["run", "model", "relation", "kind", "action", "why kept"],
            [
                [
                    f.run_id,
                    f.model,
                    f.relation,
                    f.kind,
                    "would drop" if f.action == "drop" else f.action,
                    f.reason or "",
                ]
                for f in found
            ],
        )
    )
    listed = [f for f in found if f.action == "drop"]
    if listed:
        click.echo(
            f"{len(listed)} relation(s) no packet needs. Drop them with: dbt-backfill clean --orphans "
            f"--older-than {older_than} --yes"
        )
    elif dropped:
        click.echo(f"Dropped {len(dropped)} relation(s) no packet needed.")


@main.command()
@click.argument("model", required=False)
@click.option("--run", "run_id", default=None, help="Only this run's events.")
@click.option(
    "--since",
    default=None,
    help="Only events recorded since: a date or an ISO date-time (UTC unless it carries an offset).",
)
@click.option(
    "--limit",
    type=click.IntRange(min=1),
    default=1000,
    show_default=True,
    help="At most this many events: the newest, shown oldest first.",
)
@dbt_options
@json_option
@handles_outcomes
def history(model, run_id, since, limit, project_dir, profiles_dir, dbt_target, dbt_vars, as_json) -> None:
    """The audit trail (planned, approved, replaced, verified, rolled back, refused), oldest first: of MODEL, or of
    every model with meta.backfill, read where apply and rollback write it (beside each model's relation, custom
    schemas included, or the var dbt_backfill_audit_schema)."""
    result = read_history(runner_from(project_dir, profiles_dir, dbt_target, dbt_vars), model, run_id, since, limit)
    if as_json:
        click.echo(json.dumps(result))
        return
    if not result["audits"]:
        click.echo(
            f"No audit table ({', '.join(result['looked_in']) or 'no model declares meta.backfill'}): nothing "
            f"is recorded {'for ' + model if model else 'here'} (nothing was planned, or the table was dropped)."
        )
        return
    click.echo(
        f"Audit trail in {', '.join(result['audits'])}{' for ' + model if model else ''}"
        f"{', run ' + run_id if run_id else ''}{', since ' + since if since else ''}: "
        f"{len(result['events'])} event(s)."
    )
    if result["events"]:
        # the role that wrote each row, where the engine has roles (PostgreSQL): what the checks believe it by
        attributed = any(e.get("recorded_by") for e in result["events"])
        click.echo(
            _table(
                ["recorded at", "run", "model", "event", "partition", "approved by", "by", "outcome"]
                + (["recorded by"] if attributed else []),
                [
                    [
                        e["recorded_at"][:19],
                        e["run_id"] or "",
                        e["model"] or "",
                        e["event"],
                        shown(e["partition_value"] or ""),
                        e["approved_by"] or "",
                        e.get("who") or "",
                        (e.get("said") or e["outcome"] or "")[:60],
                    ]
                    + ([shown(e.get("recorded_by") or "")] if attributed else [])
                    for e in result["events"]
                ],
            )
        )


@main.command()
@click.argument("model")
@click.option(
    "--partitions",
    default=None,
    metavar="VALUES",
    help="Only these partitions: values and inclusive ranges, comma-separated (as plan takes them). "
    "Default: every partition the audit trail records a write of.",
)
@dbt_options
@json_option
@handles_outcomes
def partitions(model, partitions, project_dir, profiles_dir, dbt_target, dbt_vars, as_json) -> None:
    """The partition ledger of MODEL: each partition's last recorded writer (a run, with its approver; a full
    refresh; or none recorded: the live job), when, its rows and SHA-256 now, and whether it still holds what that
    writer wrote. Reads only (but an audit table from an earlier version is brought up to date once, when its
    owner runs it)."""
    ledger = read_ledger(runner_from(project_dir, profiles_dir, dbt_target, dbt_vars), model, partitions)
    if as_json:
        click.echo(
            json.dumps(
                {
                    "status": "read",
                    "model": ledger.model,
                    "target": ledger.target,
                    "partitions": [entry.to_dict() for entry in ledger.partitions],
                }
            )
        )
        return
    click.echo(f"Partitions of {ledger.model} ({ledger.target}), read now, with their last recorded writer:")
    click.echo(
        _table(
            ["partition", "rows", "sha256", "last written", "holds it", "as the audit trail and the table say"],
            [
                [
                    shown(e.value),
                    str(e.rows),
                    e.sha256[:12],
                    e.at or "",
                    "yes" if e.holds_writer else ("no" if e.writer == "run" else "-"),
                    e.said,
                ]
                for e in ledger.partitions
            ],
        )
    )


if __name__ == "__main__":
    main()
