"""The options of every command, declared once each: the dbt options (as dbt takes them), --json and --timings that
every command reaching dbt shares (given to it as one Call), and each command's own. The commands are in cli.py."""

from __future__ import annotations

import contextlib
import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

import click
from click.core import ParameterSource

from dbt_backfill.dbt_runner import DbtOptions, DbtRunner, Timings, default_project_dir
from dbt_backfill.packet import Packet
from dbt_backfill.progress import Progress, timings_json, timings_text

Decorator = Callable[[Callable[..., Any]], Callable[..., Any]]


def stacked(*decorators: Decorator) -> Decorator:
    """Decorators applied as if written one above the other, in this order."""

    def apply(command: Callable[..., Any]) -> Callable[..., Any]:
        for decorator in reversed(decorators):
            command = decorator(command)
        return command

    return apply


DBT_OPTIONS = (
    # as dbt takes them: the option, else its environment variable, else dbt's own default
    click.option(
        "--project-dir",
        type=click.Path(file_okay=False, path_type=Path),
        envvar="DBT_PROJECT_DIR",
        help="The dbt project (else DBT_PROJECT_DIR, else the nearest directory up from here holding a "
        "dbt_project.yml, as dbt finds it).",
    ),
    click.option(
        "--profiles-dir",
        type=click.Path(file_okay=False, path_type=Path),
        envvar="DBT_PROFILES_DIR",
        help="Where profiles.yml is (else DBT_PROFILES_DIR, else dbt's own default).",
    ),
    click.option(
        "--target",
        "dbt_target",
        envvar="DBT_TARGET",
        help="The dbt target (profile output; else DBT_TARGET, else the profile's default).",
    ),
    click.option("--vars", "dbt_vars", help="dbt --vars, as YAML."),
    click.option("--json", "as_json", is_flag=True, help="Print the machine-readable result on stdout."),
    click.option(
        "--timings",
        "show_timings",
        is_flag=True,
        help="Then say how long dbt took: its import, its parse, each invocation's wall time and the SQL time it "
        "logged (a table on stderr; with --json, the document's `timings`).",
    ),
)
CALL_OPTIONS = ("project_dir", "profiles_dir", "dbt_target", "dbt_vars", "as_json", "show_timings")


@dataclass(frozen=True)
class Call:
    """What every command that reaches dbt was given: the dbt options, whether to print JSON and timings; and what
    a person watches meanwhile (the progress line, where stderr is a terminal)."""

    project_dir: Path | None
    profiles_dir: Path | None
    dbt_target: str | None
    dbt_vars: str | None
    as_json: bool
    show_timings: bool = False
    progress: Progress | None = None
    timings: Timings = field(default_factory=Timings)  # every runner of the command adds its invocations here

    @classmethod
    def taken(cls, given: dict[str, Any], command: str) -> Call:
        """The options every command reaching dbt shares, taken out of `command`'s keyword arguments (the rest
        are its own)."""
        shared = {name: given.pop(name) for name in CALL_OPTIONS}
        return cls(**shared, progress=Progress.on_terminal(command, as_json=shared["as_json"]))

    def runner(self, planned_target: str | None = None, planned_vars: str | None = None) -> DbtRunner:
        """dbt on this project; the target and the vars given, else those the packet was planned with (its
        `dbt_target`, and `Packet.vars_passed_on`), else dbt's defaults."""
        target = self.dbt_target or planned_target
        vars_ = self.dbt_vars if self.dbt_vars is not None else planned_vars
        options = DbtOptions.found(self.project_dir, self.profiles_dir, target, vars_)
        return DbtRunner(options, observer=self.progress, timings=self.timings)

    def runner_for(self, packet: Packet) -> DbtRunner:
        """dbt on this project for a command on `packet`: its target and vars unless given others."""
        return self.runner(packet.dbt_target, packet.vars_passed_on())

    def names_the_target(self) -> bool:
        """Whether the command was told where the target is (--project-dir, --profiles-dir or --target)."""
        context = click.get_current_context()
        return any(
            context.get_parameter_source(name) != ParameterSource.DEFAULT
            for name in ("project_dir", "profiles_dir", "dbt_target")
        )

    def project(self) -> Path:
        """The dbt project's directory, found as dbt finds it (its .dbt-backfill/allowed_signers is read there)."""
        return (self.project_dir or default_project_dir()).resolve()

    def emit(self, document: dict[str, Any], text: str) -> None:
        self.say(json.dumps(self.with_timings(document), default=str) if self.as_json else text)

    def say(self, text: str, err: bool = False, nl: bool = True) -> None:
        """Print what the command says: the progress line is cleared first, so the two never run into each other."""
        if self.progress is not None:
            self.progress.close()
        click.echo(text, err=err, nl=nl)

    def with_timings(self, document: dict[str, Any]) -> dict[str, Any]:
        """The JSON document, with `timings` given --timings (and only then: without it, the document is as it was)."""
        return {**document, "timings": timings_json(self.timings)} if self.show_timings else document

    @contextlib.contextmanager
    def reporting(self) -> Iterator[None]:
        """Around the command: the progress line cleared at the end, however it ends; given --timings, the table on
        stderr after a command that printed its result (a failure's line carries it: `ending`)."""
        printed = False
        try:
            yield
            printed = True
        except SystemExit:  # a documented status the command exits with after its output (stale's, cascade's 4)
            printed = True
            raise
        finally:
            if self.progress is not None:
                self.progress.close()
            if printed and self.show_timings and not self.as_json:
                click.echo(timings_text(self.timings), err=True)

    def ending(self, line: str, document: dict[str, Any]) -> tuple[str, dict[str, Any]]:
        """A failure's line on stderr and JSON document, with the timings given --timings."""
        if self.progress is not None:
            self.progress.close()
        if self.show_timings and not self.as_json:
            line = f"{line}\n{timings_text(self.timings)}"
        return line, self.with_timings(document)


PACKET = click.argument("packet", type=click.Path(dir_okay=False, path_type=Path))
OVERRIDES = (  # plan's overrides of meta.backfill: (option, key)
    ("--partition-by", "partition_by", "Override meta.backfill.partition_by."),
    ("--business-key", "business_key", "Override meta.backfill.business_key (comma-separated)."),
    ("--order-by", "order_by", "Override meta.backfill.order_by (comma-separated)."),
    ("--additive", "additive", "Override meta.backfill.additive (comma-separated)."),
    ("--exclude-columns", "exclude_columns", "Override meta.backfill.exclude_columns (comma-separated)."),
    (
        "--watermark-column",
        "watermark",
        "Override meta.backfill.watermark with {column: COL}: the live job resumes from max(COL).",
    ),
)


def by_option(what: str) -> Callable[..., Any]:
    return click.option("--by", help=f"Who {what} (recorded in the audit trail; default: the OS user).")


OVERRIDDEN = tuple(key for _, key, _ in OVERRIDES)


def with_overrides(command: Callable[..., None]) -> Callable[..., None]:
    for flag, key, help_text in reversed(OVERRIDES):
        command = click.option(flag, key, help=help_text)(command)
    return command


plan = stacked(
    click.argument("model"),
    click.option(
        "--partitions",
        help="Comma-separated partition values, each a value or an inclusive range of dates or integers: "
        "2026-03-01,2026-03-02 or 2026-01-01..2026-03-31 or 1..12.",
    ),
    click.option(
        "--partitions-file",
        type=click.Path(dir_okay=False, exists=True, path_type=Path),
        help="A file of partition values (or ranges), one per line; blank lines are skipped.",
    ),
    click.option(
        "--out",
        type=click.Path(dir_okay=False, path_type=Path),
        help="Where to write the packet (default: <project>/backfills/<model>__<run_id>.yml).",
    ),
    with_overrides,
    click.option(
        "--allow-empty",
        metavar="REASON",
        help="Allow emptying a partition the target holds rows for; the reason is recorded in the packet.",
    ),
    click.option(
        "--allow-watermark-move",
        metavar="REASON",
        help="Allow raising the live job's column watermark; the reason is recorded in the packet.",
    ),
    click.option(
        "--allow-table",
        metavar="REASON",
        help="Plan a model materialized as a table (its next run rebuilds it whole); the reason is recorded in the packet.",
    ),
    click.option(
        "--batch-size",
        type=click.IntRange(min=1),
        default=5,
        show_default=True,
        help="Partitions per batch after the canary (apply checks the target after each batch).",
    ),
    click.option(
        "--prove-window",
        type=click.Choice(["full"]),
        help="Prove the input windows over the whole history in this plan, whatever proof is recorded "
        "(otherwise: on the model's first plan, after its code changes, a failed proof or "
        "meta.backfill.window_proof_max_age).",
    ),
    click.option(
        "--stale",
        "from_stale",
        is_flag=True,
        help="Plan exactly the partitions `dbt-backfill stale` finds now (instead of --partitions).",
    ),
    click.option(
        "--since",
        metavar="WHEN",
        help="With --stale: as `stale --since` (partitions nothing recorded vouches for later are taken as right then).",
    ),
    click.option(
        "--format",
        "output_format",
        type=click.Choice(["text", "md"]),
        default="text",
        show_default=True,
        help="text: a summary; md: the written plan (also saved beside the packet as .md).",
    ),
)


approve = stacked(
    PACKET,
    click.option("--by", help="Who approves (recorded in the packet): a typed name, unless --sign proves it."),
    click.option(
        "--sign",
        "key",
        type=click.Path(dir_okay=False, exists=True, path_type=Path),
        metavar="KEY",
        help="Sign the approval with this SSH private key; the project's .dbt-backfill/allowed_signers must list it "
        "(its principal is the approver). Written beside the packet, in PACKET.approvals/.",
    ),
    click.option(
        "--revoke",
        is_flag=True,
        help="Withdraw an approval: the signatures --sign KEY made beside the packet, and, given the target, the "
        "approval recorded with your login.",
    ),
    click.option(
        "--despite",
        metavar="REASON",
        help="Approve a packet its review judged RESTRUCTURE FIRST, saying why (recorded with the approval).",
    ),
)


demo = stacked(
    click.option(
        "--dir",
        "directory",
        type=click.Path(file_okay=False, path_type=Path),
        default=Path("dbt_backfill_demo"),
        show_default=True,
        help="Where to build the demo project (replaced if it is an earlier demo).",
    ),
)


apply = stacked(
    PACKET,
    click.option(
        "--batch-size",
        type=click.IntRange(min=1),
        help="Partitions per batch after the canary (default: the packet's).",
    ),
    click.option(
        "--cascade",
        "then_cascade",
        is_flag=True,
        help="Then rebuild the downstream models the packet lists, in order, each behind its own gates.",
    ),
    click.option(
        "--allow-source-drift",
        metavar="REASON",
        help="Apply although the source changed since the plan; the reason is recorded in the audit trail.",
    ),
)


verify = stacked(
    PACKET,
)


rollback = stacked(
    PACKET,
    by_option("rolls back"),
)


status = stacked(
    PACKET,
)


clean = stacked(
    click.argument("packet", required=False, type=click.Path(dir_okay=False, path_type=Path)),
    click.option(
        "--run",
        "run_id",
        metavar="RUN_ID",
        help="Clean one run by its id, without its packet (a failed or killed plan's stages, say).",
    ),
    click.option(
        "--orphans",
        is_flag=True,
        help="List the relations of every run that no packet needs (from the audit trail); --yes drops them.",
    ),
    click.option(
        "--older-than",
        default="1d",
        show_default=True,
        help="With --orphans: only runs whose plan began longer ago than this (7d, 12h, 30m).",
    ),
    click.option(
        "--yes", is_flag=True, help="With --orphans: drop what the list marks `drop` (without it: list only)."
    ),
    click.option(
        "--drop-backups",
        is_flag=True,
        help="With PACKET or --run: drop the backups too, even while a rollback is still possible.",
    ),
    by_option("cleans"),
)


history = stacked(
    click.argument("model", required=False),
    click.option("--run", "run_id", help="Only this run's events."),
    click.option(
        "--since", help="Only events recorded since: a date or an ISO date-time (UTC unless it carries an offset)."
    ),
    click.option(
        "--limit",
        metavar="N",
        default="1000",
        show_default=True,
        # checked where pure dbt's `limit` is (backfill_history's _positive_integer): one rule, one refusal, exit 1
        help="At most this many events (1 to 999999999): the newest, shown oldest first.",
    ),
)


partitions = stacked(
    click.argument("model"),
    click.option(
        "--partitions",
        metavar="VALUES",
        help="Only these partitions: values and inclusive ranges, comma-separated (as plan takes them). "
        "Default: every partition the audit trail records a write of.",
    ),
)


stale = stacked(
    click.argument("model"),
    click.option(
        "--partitions",
        metavar="VALUES",
        help="Only these partitions: values and inclusive ranges, comma-separated (as plan takes them); a value "
        "the target lacks is looked at too. Default: every partition from the target's first to its last.",
    ),
    click.option(
        "--since",
        metavar="WHEN",
        help="For this scan, take every partition no later scan or recorded write vouches for as right at WHEN (an ISO "
        "date or date-time, UTC unless it carries an offset; never one a scan found stale): only input changes after "
        "it are compared.",
    ),
)


def check_plan(partitions: str | None, partitions_file: Path | None, from_stale: bool, since: str | None) -> None:
    """What plan's partition options allow together."""
    named = (partitions is not None) + (partitions_file is not None) + from_stale
    if named != 1 or (since is not None and not from_stale):
        raise click.UsageError(
            "give the partitions with exactly one of --partitions, --partitions-file and --stale (--since goes with --stale)."
        )


def check_clean(
    packet: Path | None, run_id: str | None, orphans: bool, older_than: str, yes: bool, drop_backups: bool
) -> None:
    """What clean's options allow together."""
    if sum(bool(x) for x in (packet, run_id, orphans)) != 1:
        raise click.UsageError("name what to clean: a PACKET, --run RUN_ID or --orphans (exactly one).")
    if (yes or older_than != "1d") and not orphans:
        raise click.UsageError("--yes and --older-than go with --orphans.")
    if drop_backups and orphans:
        raise click.UsageError(
            "--orphans never drops a backup a rollback may need: clean that run with its packet, "
            "or --run RUN_ID --drop-backups."
        )
