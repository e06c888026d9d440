"""The `dbt-backfill` command: parse, call one workflow function, hand its result to the formatter, exit. Exit
status: 0 done; 3 a safety refusal (the target is unchanged unless the message says otherwise); 4 a model differs
from what it builds now, named with the command that repairs it (`stale` found partitions, or `apply --cascade`
applied the root and left a downstream model); 1 bad input or configuration, or the database failed (the message names its cause); 2 usage; 130
interrupted (Ctrl-C, SIGTERM). After apply or rollback stop short, the target's state is read afresh and printed,
never inferred."""

from __future__ import annotations

import contextlib
import json
import sys
from collections.abc import Iterator, Sequence
from functools import wraps
from pathlib import Path
from typing import Any, Callable

import click

from dbt_backfill import __version__, formatter, options
from dbt_backfill.dbt_runner import redact
from dbt_backfill.demo import run_demo
from dbt_backfill.errors import BackfillError, BackfillRefused, Interrupted
from dbt_backfill.packet import PacketFile
from dbt_backfill.workflow import (
    apply as apply_,
    approve as approve_,
    cascade,
    clean as clean_,
    history as history_,
    ledger,
    plan as plan_,
    repair,
    rollback as rollback_,
    stale as stale_,
    status as status_,
    verify as verify_,
)
from dbt_backfill.workflow.state import StoppedShort, TargetState

EXIT_ERROR, EXIT_REFUSED, EXIT_INTERRUPTED = 1, 3, 130
EXIT_STALE = EXIT_DOWNSTREAM_STALE = 4  # a model differs from what it builds now (stale; apply --cascade downstream)


def reaches_dbt(command: Callable[..., None]) -> Callable[..., None]:
    """The dbt options, --json, --timings, declared once, handed to the command as one `call`; failures as outcomes."""

    @wraps(command)
    def wrapper(*args: Any, **kwargs: Any) -> None:
        call = options.Call.taken(kwargs, command.__name__)
        with outcomes(call.as_json, call), call.reporting():
            command(*args, call=call, **kwargs)

    for option in reversed(options.DBT_OPTIONS):
        wrapper = option(wrapper)
    return wrapper


@contextlib.contextmanager
def outcomes(as_json: bool, call: options.Call | None = None) -> Iterator[None]:
    """Each way a command stops short as one line on stderr (with the target's state, where it was read) and the
    documented exit status."""
    try:
        yield
    except StoppedShort as stopped:
        _fail(stopped.failure, as_json, stopped.state, call)
    except (BackfillRefused, BackfillError, KeyboardInterrupt) as failure:
        _fail(failure, as_json, call=call)


def _fail(
    failure: BaseException, as_json: bool, state: TargetState | None = None, call: options.Call | None = None
) -> None:
    line, document = formatter.failure_line(failure), formatter.failure_json(failure)
    if state is not None:
        line, document = f"{line}\n{formatter.state_text(state)}", {**document, "state": state.to_dict()}
    line, document = call.ending(line, document) if call is not None else (line, document)
    click.echo(redact(line), err=True)
    if as_json:
        click.echo(redact(json.dumps(document, default=str)))
    refused, interrupted = isinstance(failure, BackfillRefused), isinstance(failure, (Interrupted, KeyboardInterrupt))
    sys.exit(EXIT_REFUSED if refused else EXIT_INTERRUPTED if interrupted else EXIT_ERROR)


@click.group()
@click.version_option(__version__, prog_name="dbt-backfill")
def main() -> None:
    """Repair published partitions of a dbt model: plan, approve, apply, verify."""


@main.command()
@options.plan
@reaches_dbt
def plan(
    model, partitions, partitions_file, from_stale, since, out, output_format, call: options.Call, **given: Any
) -> None:
    """Build MODEL's PARTITIONS twice from a pinned source, compare, review, and write the approval packet and the
    written plan."""
    options.check_plan(partitions, partitions_file, from_stale, since)
    values = plan_.read_partitions_file(partitions_file) if partitions_file else partitions or ""

    def say(expanded: Sequence[str]) -> None:  # what ranges, quotes, a file or the scan came to, before any build
        call.say(formatter.partitions_line(expanded, partitions_file), err=call.as_json)

    said = say if partitions_file or from_stale or ".." in values or '"' in values else None
    overrides = {key: given.pop(key) for key in options.OVERRIDDEN}
    request = plan_.PlanRequest(model, values, out, overrides, on_resolved=said, **given)
    result = repair.plan_stale(call.runner(), request, since) if from_stale else plan_.plan(call.runner(), request)
    if isinstance(result, stale_.StaleScan):
        call.emit(formatter.stale_json(result), formatter.stale_text(result))
    elif isinstance(result, plan_.NothingToChange):
        call.emit(formatter.nothing_to_change_json(result), result.message)
    elif output_format == "md" and not call.as_json:
        call.say(result.markdown, nl=False)
    else:
        call.emit(formatter.plan_json(result), formatter.plan_text(result))


@main.command()
@options.approve
@reaches_dbt
def approve(
    packet: Path, by: str | None, key: Path | None, revoke: bool, despite: str | None, call: options.Call
) -> None:
    """Approve the exact content of PACKET (binds to its SHA-256), by name or signed with a key (--sign), or withdraw
    an approval (--revoke). Given --project-dir, --profiles-dir or --target, it also records the approval in the
    target's audit trail, as your login; else the first apply does."""
    opened = PacketFile.read(packet)
    runner = call.runner_for(opened.packet) if call.names_the_target() else None
    done = approve_.approve_command(opened, by, key, revoke, despite, runner, call.project())
    call.emit(formatter.approve_json(done), formatter.approve_text(done, packet))


@main.command()
@options.demo
def demo(directory: Path) -> None:
    """Play the seed scenario end to end on a local DuckDB file (no server): plan, approve, apply, verify."""
    with outcomes(as_json=False):
        sys.exit(run_demo(directory, click.echo))


@main.command()
@options.apply
@reaches_dbt
def apply(
    packet: Path, batch_size: int | None, then_cascade: bool, allow_source_drift: str | None, call: options.Call
) -> None:
    """Replace the approved partitions of PACKET, one transaction each (Spark: one swap of the partition's
    directory each): the canary first, then batches, with the target and a control partition checked after each."""
    opened = PacketFile.read(packet)
    runner = call.runner_for(opened.packet)
    if then_cascade:
        cascaded = cascade.apply_cascade(runner, opened, batch_size, allow_source_drift=allow_source_drift)
        result, steps, left = cascaded.root, cascaded.steps, cascaded.left_stale
    else:
        result, steps, left = apply_.apply(runner, opened, batch_size, allow_source_drift), (), ()
    call.emit(formatter.applied_json(result, steps, left), formatter.applied_text(result, steps, packet))
    if left:
        if not call.as_json:
            call.say(formatter.downstream_left_text(left), err=True)
        sys.exit(EXIT_DOWNSTREAM_STALE)


@main.command()
@options.verify
@reaches_dbt
def verify(packet: Path, call: options.Call) -> None:
    """Check that the target's partitions still equal PACKET's approved fingerprints."""
    opened = PacketFile.read(packet)
    result = verify_.verify(call.runner_for(opened.packet), opened)
    call.emit(formatter.verified_json(result), formatter.verified_text(result))


@main.command()
@options.rollback
@reaches_dbt
def rollback(packet: Path, by: str | None, call: options.Call) -> None:
    """Restore PACKET's replaced partitions from their backups, one transaction each (Spark: a swap back to the old
    directory each)."""
    opened = PacketFile.read(packet)
    result = rollback_.rollback(call.runner_for(opened.packet), opened, by)
    call.emit(formatter.rolled_back_json(result), formatter.rolled_back_text(result))


@main.command()
@options.status
@reaches_dbt
def status(packet: Path, call: options.Call) -> None:
    """What each partition PACKET names holds now, read from the database: as approved, as before, or neither; and
    the command to run next. Reads only (but an audit table from an earlier version is brought up to date once,
    when its owner runs it)."""
    opened = PacketFile.read(packet)
    state = status_.status(call.runner_for(opened.packet), opened)
    call.emit(formatter.state_json(state), formatter.state_text(state))


@main.command()
@options.clean
@reaches_dbt
def clean(packet, run_id, orphans, older_than, yes, drop_backups, by, call: options.Call) -> None:
    """Drop stage and backup relations dbt-backfill created: PACKET's (backups kept while a rollback is possible),
    one run's (--run RUN_ID), or those of every run that no packet needs (--orphans)."""
    options.check_clean(packet, run_id, orphans, older_than, yes, drop_backups)
    if packet:
        opened = PacketFile.read(packet)
        cleaned = clean_.clean(call.runner_for(opened.packet), opened, drop_backups, by)
        call.emit(formatter.cleaned_json(cleaned), formatter.cleaned_text(cleaned))
        return
    found = clean_.clean_runs(call.runner(), run_id, older_than, yes, drop_backups, by)
    text = formatter.run_cleaned_text(run_id, found) if run_id else formatter.orphans_text(found, older_than)
    call.emit(formatter.runs_cleaned_json(found, dropped=bool(run_id) or yes), text)


@main.command()
@options.history
@reaches_dbt
def history(model: str | None, run_id: str | None, since: str | None, limit: str, call: options.Call) -> None:
    """The audit trail (planned, approved, replaced, verified, rolled back, refused), oldest first: of MODEL, or of
    every model with meta.backfill, read where apply and rollback write it (beside each model's relation, custom
    schemas included, or the var dbt_backfill_audit_schema)."""
    result = history_.history(call.runner(), model, run_id, since, limit)
    call.emit(result, formatter.history_text(result, model, run_id, since))


@main.command()
@options.partitions
@reaches_dbt
def partitions(model: str, partitions: str | None, call: options.Call) -> None:
    """The partition ledger of MODEL: each partition's last recorded writer (a run, with its approver; a full
    refresh; or none recorded: the live job), when, its rows and SHA-256 now, and whether it still holds what that
    writer wrote. Reads only (but an audit table from an earlier version is brought up to date once, when its
    owner runs it)."""
    read = ledger.read_ledger(call.runner(), model, partitions)
    call.emit(formatter.ledger_json(read), formatter.ledger_text(read))


@main.command()
@options.stale
@reaches_dbt
def stale(model: str, partitions: str | None, since: str | None, call: options.Call) -> None:
    """The published partitions of MODEL that differ from what its SQL builds now, and the plan that repairs them.
    Reads only (one stale_scan row is recorded); exit 4 when something is stale."""
    scan = stale_.find_stale(call.runner(), model, partitions, since)
    call.emit(formatter.stale_json(scan), formatter.stale_text(scan))
    if scan.stale:
        sys.exit(EXIT_STALE)


if __name__ == "__main__":
    main()
