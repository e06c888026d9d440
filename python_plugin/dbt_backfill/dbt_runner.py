"""The one place that invokes dbt and reads what the package's macros hand back.

dbt runs inside the CLI's process through its documented programmatic API (`dbtRunner`, public since dbt 1.5),
with the user's profile, project, target and vars, exactly the flags a user would pass. A command parses the
project once and hands that manifest to each of its invocations (compile, the operations), so a command pays for
importing dbt and loading its project once, not once per invocation (decision 29). Macros return data as
sentinel-wrapped JSON lines on dbt's log (run-operation discards return values); dbt's events reach us through a
callback, and nothing dbt logs is printed on the CLI's stdout. Every command keeps its invocations few and
constant, looping over partitions inside one operation.
"""

from __future__ import annotations

import contextlib
import difflib
import hashlib
import io
import json
import os
import re
import shutil
import subprocess
import sys
import time
import warnings
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

import yaml

from dbt_backfill import __version__, template_cache
from dbt_backfill.causes import classify
from dbt_backfill.errors import BackfillError, BackfillRefused
from dbt_backfill.packet import RelationRef
from dbt_backfill.signals import holding_signals

RESULT = re.compile(r"<<dbt_backfill:(?P<kind>[a-z_]+)>>(?P<payload>.*?)<</dbt_backfill>>", re.DOTALL)
ANSI = re.compile(r"\x1b\[[0-9;]*m")
SECRET_NAME = re.compile(r"PASSWORD|SECRET|TOKEN|PRIVATE_KEY|CREDENTIAL", re.IGNORECASE)
SUPPORTED_ADAPTERS = ("postgres", "duckdb", "spark")


def redact(text: str, environ: Mapping[str, str] | None = None) -> str:
    """Replace the value of every secret-looking environment variable (and DBT_ENV_SECRET_*) with ****."""
    environ = os.environ if environ is None else environ
    for name, value in environ.items():
        if value and len(value) >= 4 and (SECRET_NAME.search(name) or name.startswith("DBT_ENV_SECRET_")):
            text = text.replace(value, "****")
    return text


def recordable_vars(given: str | None, environ: Mapping[str, str] | None = None) -> str | None:
    """The --vars a packet records (`dbt_vars`), or None: not vars holding a secret's value (`redact`'s), in their
    text or in any text YAML reads from them. YAML text escapes what it holds (`\\"`, `\\xe4`), so a secret in
    it cannot be masked the way dbt masks a line: such vars are not recorded, and the commands on the packet are given
    them again, as before DECISIONS row 161."""
    if given is None or redact(given, environ) != given:
        return None
    try:
        read = yaml.safe_load(given)
    except yaml.YAMLError:
        return given  # dbt refuses them as it parses; nothing here to mask
    return None if _each_text(read, lambda text: redact(text, environ)) != read else given


def _each_text(value: Any, change: Callable[[str], str]) -> Any:
    """`value` (decoded JSON or YAML) with `change` made to each of its strings, keys included. Masking a result once
    decoded: the line was masked too, but a result arrives as JSON text, which escapes a quote, a backslash or a
    character beyond ASCII, so a secret holding one is not found there and would come back whole once decoded (a
    helper's attack: a secret `pässwort"x` given in --vars was written to the packet in clear)."""
    if isinstance(value, str):
        return change(value)
    if isinstance(value, list):
        return [_each_text(item, change) for item in value]
    if isinstance(value, dict):
        return {_each_text(k, change): _each_text(v, change) for k, v in value.items()}
    return value


def require_supported_adapter(adapter_type: str) -> None:
    """Refuse, before anything runs, an adapter the package has no leaves for (its macros would raise mid-way)."""
    if adapter_type not in SUPPORTED_ADAPTERS:
        raise BackfillError(
            f"dbt-backfill supports {', '.join(SUPPORTED_ADAPTERS)}; this project's target uses "
            f"{adapter_type or 'an unknown adapter'}. Nothing was changed."
        )


def default_project_dir() -> Path:
    """Where dbt finds the project when neither --project-dir nor DBT_PROJECT_DIR names it: the nearest directory
    from here up holding a dbt_project.yml, else here (dbt-core's dbt.cli.resolvers.default_project_dir, 1.5+)."""
    here = Path.cwd()
    return next((d for d in (here, *here.parents) if (d / "dbt_project.yml").exists()), here)


@dataclass(frozen=True)
class DbtOptions:
    project_dir: Path
    profiles_dir: Path | None = None
    target: str | None = None
    vars: str | None = None

    @classmethod
    def found(
        cls, project_dir: Path | None, profiles_dir: Path | None, target: str | None, vars: str | None
    ) -> DbtOptions:
        """The options as dbt takes them, the project found as dbt finds it; refused where it holds no project."""
        project_dir = (project_dir or default_project_dir()).resolve()
        if not (project_dir / "dbt_project.yml").is_file():
            here = project_dir == Path.cwd().resolve()
            looked = f"in {project_dir} and every directory above it" if here else f"in {project_dir}"
            raise BackfillError(
                f"no dbt project found: no dbt_project.yml {looked}. Run dbt-backfill inside your dbt "
                f"project, or name it with --project-dir (or DBT_PROJECT_DIR). Nothing was read or "
                f"written."
            )
        return cls(project_dir, profiles_dir.resolve() if profiles_dir else None, target, vars)

    def flags(self) -> list[str]:
        flags = ["--project-dir", str(self.project_dir)]
        if self.profiles_dir:
            flags += ["--profiles-dir", str(self.profiles_dir)]
        if self.target:
            flags += ["--target", self.target]
        if self.vars:
            flags += ["--vars", self.vars]
        return flags


@dataclass(frozen=True)
class MacroResult:
    kind: str
    payload: Any


@dataclass(frozen=True)
class Invocation:
    returncode: int
    results: tuple[MacroResult, ...]
    errors: tuple[str, ...]

    def first(self, kind: str) -> Any:
        """The operation's first `kind` result (decoded JSON): every operation emits what its caller reads, so one
        missing means the package and the CLI disagree."""
        found = self.maybe(kind)
        if found is None:
            raise BackfillError(
                f"dbt-backfill's operation returned no `{kind}` result: the package the project installs is not the "
                f"one this CLI expects (run `dbt deps`, and check both are dbt-backfill {__version__}). Nothing was "
                f"changed by this step."
            )
        return found

    def maybe(self, kind: str) -> Any | None:
        """The first `kind` result, where an operation emits it only sometimes (a refusal, an error)."""
        return next((r.payload for r in self.results if r.kind == kind), None)

    def all(self, kind: str) -> list[Any]:
        return [r.payload for r in self.results if r.kind == kind]


# what a command watches the package's results with while dbt runs (the progress line: progress.Progress)
Observer = Callable[[MacroResult], None]


@dataclass(frozen=True)
class InvocationTiming:
    """One dbt invocation, as --timings shows it."""

    name: str  # the dbt command (parse, compile), or the package's macro a run-operation ran
    wall_s: float
    # what dbt logged of its statements (the sum of its SQLQueryStatus events' `elapsed`, and how many): the time
    # the database took, as the adapter measured it around each statement
    sql_s: float
    statements: int


@dataclass
class Timings:
    """What a command measured of dbt (--timings): importing it, then each invocation in order (the parse first)."""

    import_s: float | None = None  # None: the command never invoked dbt
    imported_before: bool = False  # dbt was already imported in this process (a warm interpreter): import_s is ~0
    invocations: list[InvocationTiming] = field(default_factory=list)


@dataclass
class _Read:
    """What one invocation's events said, gathered as dbt logs them."""

    results: list[MacroResult] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    unreadable: list[str] = field(default_factory=list)
    sql_s: float = 0.0
    statements: int = 0

    def timed(self, event: Any) -> None:
        """Count a statement dbt timed (SQLQueryStatus); a figure only, so an event unlike dbt's own is skipped."""
        with contextlib.suppress(Exception):
            self.sql_s, self.statements = self.sql_s + float(event.data.elapsed), self.statements + 1


def _invocation_name(command: Sequence[str]) -> str:
    if command[0] == "run-operation" and len(command) > 1:
        return command[1].split(".", 1)[-1]  # dbt_backfill.plan_stages: the macro's own name
    return command[0]


def sql_sha256(sql: str) -> str:
    return hashlib.sha256(sql.encode("utf-8")).hexdigest()


def code_binding(node: Any, compiled_sql: str) -> dict[str, str]:
    """What a model runs, as a plan records it in `code` and a root's plan for each downstream model: its compiled
    SQL, its SQL file (dbt's checksum: the config() block renders to no SQL) and its meta.backfill (the contract
    its own plan resolves: partition column, key, checks), each as a SHA-256. A cascade approves a downstream plan
    in the root approver's name only while all three are what the root's approver saw."""
    meta = (node.config.meta or node.meta or {}).get("backfill")
    return {
        "compiled_sql_sha256": sql_sha256(compiled_sql),
        "model_file_sha256": node.checksum.checksum if node.checksum else "",
        "meta_backfill_sha256": sql_sha256(json.dumps(meta, sort_keys=True, default=str)),
    }


@dataclass(frozen=True)
class ModelNode:
    unique_id: str
    name: str
    relation: RelationRef
    compiled_sql: str
    materialized: str
    dbt_version: str
    adapter_type: str
    binding: Mapping[str, str] = field(default_factory=dict)  # code_binding of the model
    # code_binding of each model downstream, by unique_id, compiled by the same invocation. A downstream model that
    # did not compile is absent (the cascade then stops there for a person).
    downstream_bindings: Mapping[str, Mapping[str, str]] = field(default_factory=dict)
    # the name of each model downstream, by unique_id (a versioned model's id ends in its version, not its name)
    downstream_names: Mapping[str, str] = field(default_factory=dict)


class DbtRunner:
    def __init__(self, options: DbtOptions, observer: Observer | None = None, timings: Timings | None = None) -> None:
        self.options = options
        # handed every result as it is read, while dbt runs (a progress line): never allowed to fail an invocation
        self.observer = observer
        self.timings = Timings() if timings is None else timings  # measured always; printed with --timings
        # Our own target path: the user's target/ (and its partial-parse state) stays theirs.
        self.target_path = Path(options.project_dir).resolve() / "target" / "dbt_backfill"
        self._manifest: Any = None  # dbt's Manifest (untyped), parsed on the first invocation that needs one
        self._safe_stops: frozenset[str] = frozenset()  # results after which a requested stop may be honoured
        self._stop_requested: str | None = None  # the signal's name, once one asked the command to stop
        self.stopped_at_once = False  # a second signal did not wait for the partition's transaction

    @property
    def stop_requested(self) -> str | None:
        return self._stop_requested

    @contextlib.contextmanager
    def stopping_only_between(self, results: Sequence[str]) -> Any:
        """While the block runs, SIGINT and SIGTERM stop the command only where it is safe: at the next of the
        package's `results` (emitted after a partition's transaction committed), so no partition is left to the
        server's rollback of a cut connection. A second signal stops at once."""

        def request_stop(name: str) -> str:
            self._stop_requested = name
            return (
                f"{name} received; stopping when the current partition's transaction has ended (send it again to "
                f"stop at once)."
            )

        def at_once() -> None:
            self.stopped_at_once = True

        self._safe_stops, self._stop_requested, self.stopped_at_once = frozenset(results), None, False
        try:
            with holding_signals(request_stop, at_once):
                yield
        finally:
            self._safe_stops = frozenset()

    def _flags(self, command: Sequence[str]) -> list[str]:
        # --log-level none: nothing on stdout (the events reach the callback). dbt copies --log-level onto the
        # file's level unless that is given too: logs/dbt.log keeps its debug record of every invocation.
        # --no-write-json: nothing reads a manifest.json or run_results.json of ours (the parse's partial-parse
        # state is written all the same), and the parse and the compile each wrote a ~1 MB manifest.
        return [
            *command,
            "--no-write-json",
            "--log-format",
            "json",
            "--log-level",
            "none",
            "--log-level-file",
            "debug",
            "--target-path",
            str(self.target_path),
            *self.options.flags(),
        ]

    def _call(self, command: Sequence[str]) -> tuple[Any, Invocation]:
        dbt_runner = self._imported_dbt()
        template_cache.use()
        read = _Read()
        # What dbt's libraries print or warn (PySpark warns on every session it configures) stays out of the
        # CLI's own output, as it did when dbt ran as a subprocess; it is shown only if dbt fails and says nothing.
        printed = io.StringIO()
        began = time.perf_counter()
        try:
            with warnings.catch_warnings(), contextlib.redirect_stdout(printed), contextlib.redirect_stderr(printed):
                warnings.simplefilter("ignore")
                outcome = dbt_runner(manifest=self._manifest, callbacks=[self._listener(read)]).invoke(
                    self._flags(command)
                )
        finally:  # a failed or interrupted invocation took its time too
            wall_s = time.perf_counter() - began
            self.timings.invocations.append(
                InvocationTiming(_invocation_name(command), wall_s, read.sql_s, read.statements)
            )
        if isinstance(outcome.exception, (KeyboardInterrupt, SystemExit)):
            raise outcome.exception  # dbt catches these too; they are the user's, not a database's error
        errors = read.errors
        if not outcome.success and not errors:
            said = str(outcome.exception).strip() if outcome.exception is not None else ""
            errors.append(
                redact(
                    said
                    or "\n".join(printed.getvalue().strip().splitlines()[-5:])
                    or f"dbt {command[0]} failed without an error message"
                )
            )
        errors.extend(read.unreadable)
        returncode = 0 if outcome.success and not read.unreadable else (2 if outcome.exception is not None else 1)
        return outcome.result, Invocation(returncode, tuple(read.results), tuple(errors))

    def _imported_dbt(self) -> Any:
        """dbt's runner class, imported here: `dbt-backfill --help` and packet checks stay fast. The first import
        of a command is timed (--timings): loading dbt is a fixed cost of every command that reaches it."""
        loaded, began = "dbt.cli.main" in sys.modules, time.perf_counter()
        from dbt.cli.main import dbtRunner

        if self.timings.import_s is None:
            self.timings.import_s, self.timings.imported_before = time.perf_counter() - began, loaded
        return dbtRunner

    def _listener(self, read: _Read) -> Callable[[Any], None]:
        """dbt's callback for one invocation: every event it fires, gathered into `read`."""
        from dbt_common.exceptions.base import env_secrets, scrub_secrets

        # read once per invocation, not per event: dbt fires ~45 events a statement, and reading the environment
        # for each was 0.3 s of a 10-partition plan (issue 57's profile)
        secrets = env_secrets()

        def on_event(event: Any) -> None:
            stop_here = False
            # A callback sees every event, debug ones included: `SQLQuery` carries each statement's text, so a
            # sentinel written into a model's SQL (a comment) would read as a result. Results come only from the
            # package's own log() calls (JinjaLogInfo, JinjaLogDebug). Secrets are scrubbed as dbt's own loggers scrub each line.
            # Nothing raised here may reach dbt: it would abort the macro mid-way.
            try:
                name = event.info.name
                if name == "SQLQueryStatus":
                    read.timed(event)
                if name not in ("JinjaLogInfo", "JinjaLogDebug") and event.info.level != "error":
                    return  # neither a result nor an error: nothing here is read
                message = ANSI.sub("", scrub_secrets(str(event.info.msg), secrets))
                # on dbt's debug level unless the operation was asked to show them (_emit_result)
                if name in ("JinjaLogInfo", "JinjaLogDebug") and "<<dbt_backfill:" in message:
                    for match in RESULT.finditer(message):
                        payload = json.loads(match["payload"])
                        if secrets:
                            payload = _each_text(payload, lambda text: scrub_secrets(text, secrets))
                        read.results.append(MacroResult(match["kind"], payload))
                        self._observed(read.results[-1])
                        stop_here = self._stop_requested is not None and match["kind"] in self._safe_stops
                if event.info.level == "error" and message.strip():
                    read.errors.append(redact(message.strip()))
            except Exception as exc:  # a malformed payload: the command fails with it, dbt carries on
                read.unreadable.append(redact(f"a result of dbt_backfill could not be read ({exc})"))
                return
            if stop_here:
                # the one thing raised into dbt, on purpose: a requested stop, right after a partition committed
                raise KeyboardInterrupt

        return on_event

    def _observed(self, result: MacroResult) -> None:
        """Hand `result` to the observer. Whatever it raises stays here: a display never fails dbt's macro (nor
        the command), and one that failed once is not called again (a closed terminal, say)."""
        if self.observer is None:
            return
        try:
            self.observer(result)
        except Exception:
            self.observer = None

    def _parsed(self) -> Invocation | None:
        """Parse the project once per command (dbt's partial-parse state in our target path keeps it cheap);
        returns the failed invocation if the project does not parse."""
        if self._manifest is None:
            manifest, invocation = self._call(["parse", *self._partial_parse_source()])
            if invocation.returncode != 0:
                return invocation
            self._manifest = manifest
        return None

    def _partial_parse_source(self) -> list[str]:
        """Where dbt reads its saved parse from: the newer of ours and the one the user's own dbt runs leave in
        their target/ (dbt's own `--partial-parse-file-path`). dbt only reads that file and writes ours, so
        their target/ stays untouched; it checks the file as it checks its own (dbt version, vars, profile,
        target, every project's dbt_project.yml, each file's checksum) and parses in full where anything differs.
        The first command after the user's `dbt run` with the same vars then parses partially, not in full
        (7.07 s in issue 18's profile of a plan, under load: docs/DECISIONS.md row 48)."""
        if os.environ.get("DBT_PARTIAL_PARSE_FILE_PATH"):
            return []  # the user's own choice, which dbt reads from the environment
        ours = self.target_path / "partial_parse.msgpack"
        theirs = (
            Path(self.options.project_dir).resolve()
            / os.environ.get("DBT_TARGET_PATH", "target")
            / "partial_parse.msgpack"
        )
        try:
            if theirs.stat().st_mtime > (ours.stat().st_mtime if ours.exists() else 0.0):
                return ["--partial-parse-file-path", str(theirs)]
        except OSError:
            pass
        return []

    def invoke(self, command: Sequence[str]) -> Invocation:
        return self._invoke(command)[1]

    def _invoke(self, command: Sequence[str]) -> tuple[Any, Invocation]:
        failed = self._parsed()
        if failed is not None:
            return None, failed
        return self._call(command)

    def compile_model(self, model: str) -> ModelNode:
        """The model's SQL with full, non-incremental semantics (`--full-refresh` makes is_incremental() false
        at compile time), and what the manifest says of it. The models downstream of it are compiled by the same
        invocation (their SQL hashes bind a cascade); one of them failing to compile fails nothing here."""
        self._forget_compiled_code()
        # models only: dbt's indirect selection would add the data tests of the selected models (a test is no model
        # to cascade to; its id's last part is a hash)
        compiled, invocation = self._invoke(
            ["compile", "--select", f"{model}+,resource_type:model", "--indirect-selection", "empty", "--full-refresh"]
        )
        results = {r.node.unique_id: r for r in getattr(compiled, "results", None) or []}
        if invocation.returncode != 0 and not any(
            r.node.name == model and r.node.resource_type == "model" and str(r.status) == "success"
            for r in results.values()
        ):
            self._refuse_if_locked(invocation)
            raise BackfillError(f"dbt compile of {model} failed; nothing was changed.\n" + "\n".join(invocation.errors))
        manifest = self._manifest
        node = self._model_in_manifest(model)
        compiled_node = results[node.unique_id].node if node.unique_id in results else node
        adapter_type = manifest.metadata.adapter_type or ""
        require_supported_adapter(adapter_type)
        return ModelNode(
            unique_id=node.unique_id,
            name=node.name,
            relation=RelationRef(node.database, node.schema, node.alias or node.name),
            compiled_sql=compiled_node.compiled_code or "",
            materialized=node.config.materialized or "",
            dbt_version=manifest.metadata.dbt_version or "",
            adapter_type=adapter_type,
            binding=code_binding(node, compiled_node.compiled_code or ""),
            downstream_bindings={
                unique_id: code_binding(result.node, result.node.compiled_code)
                for unique_id, result in results.items()
                if unique_id != node.unique_id
                and result.node.resource_type == "model"
                and str(result.status) == "success"
                and result.node.compiled_code
            },
            downstream_names={
                unique_id: result.node.name
                for unique_id, result in results.items()
                if unique_id != node.unique_id and result.node.resource_type == "model"
            },
        )

    def _forget_compiled_code(self) -> None:
        """dbt's compiler marks each node it compiled in the manifest, which this command keeps between invocations;
        compiled again (plan --stale compiles the model twice, a cascade its children after the root's compile), a
        node so marked is rendered afresh but its ephemeral parents' CTEs are not put back in front of it
        (dbt/compilation.py: `_recursively_prepend_ctes` returns early once `extra_ctes_injected`). Each compile
        starts from the parse's state instead."""
        if self._parsed() is not None:
            return  # the compile reports the parse's failure itself
        for node in self._manifest.nodes.values():
            if getattr(node, "extra_ctes_injected", False) or getattr(node, "compiled", False):
                node.extra_ctes_injected, node.extra_ctes, node.compiled = False, [], False
                node._pre_injected_sql = None

    def _model_in_manifest(self, model: str) -> Any:
        matches = [n for n in self._manifest.nodes.values() if n.resource_type == "model" and n.name == model]
        if not matches:
            # the closest names, aliases too (a model is often known by the table it publishes)
            known = {
                name: n.name
                for n in self._manifest.nodes.values()
                if n.resource_type == "model"
                for name in {n.name, n.alias or n.name}
            }
            close = difflib.get_close_matches(model, list(known), n=3, cutoff=0.6)
            hint = (
                " Did you mean "
                + " or ".join(
                    f"{known[name]}" + (f" (its alias is {name})" if name != known[name] else "") for name in close
                )
                + "?"
                if close
                else ""
            )
            raise BackfillError(
                f"no model named {model} in the dbt project at {self.options.project_dir}.{hint} Nothing was changed."
            )
        if len(matches) > 1:
            raise BackfillError(
                f"{len(matches)} models are named {model} ({', '.join(n.unique_id for n in matches)}); "
                f"name one unambiguously. Nothing was changed."
            )
        return matches[0]

    def resolve_model(self, model: str) -> tuple[str, RelationRef]:
        """What this project and target make of `model` from a parse alone, before anything connects to a database:
        the adapter type and the model's relation."""
        failed = self._parsed()
        if failed is not None:
            raise BackfillError(
                "dbt could not parse the project; nothing was read or written.\n" + "\n".join(failed.errors)
            )
        node = self._model_in_manifest(model)
        return (
            self._manifest.metadata.adapter_type or "",
            RelationRef(node.database, node.schema, node.alias or node.name),
        )

    def from_a_package(self, model: str) -> bool:
        """Whether `model` comes from an installed package rather than the project itself (parsed, nothing read)."""
        self.resolve_model(model)
        return bool(self._model_in_manifest(model).package_name != self._manifest.metadata.project_name)

    @staticmethod
    def _refuse_if_locked(invocation: Invocation) -> None:
        if any("Could not set lock on file" in e for e in invocation.errors):
            raise BackfillRefused(
                "locked",
                "the DuckDB database file is held by another process (a dbt run, another "
                "apply): nothing was done. Try again when it has finished. The target is "
                "unchanged.",
            )

    def run_operation(self, macro: str, args: Mapping[str, Any]) -> Invocation:
        """Run one of the package's operations. A `refused` result becomes BackfillRefused, an `error` result
        BackfillError; a failure without a result becomes BackfillError with dbt's own error lines."""
        invocation = self.invoke(["run-operation", f"dbt_backfill.{macro}", "--args", json.dumps(args)])
        refused = invocation.maybe("refused")
        if refused:
            raise BackfillRefused(refused["reason"], refused["message"], refused.get("details"))
        error = invocation.maybe("error")
        if error:
            raise BackfillError(error["message"])
        if invocation.returncode != 0:
            self._refuse_if_locked(invocation)
            steps = invocation.all("step")
            # the database's own words first: a lost connection is not the partition value's fault
            cause = classify("\n".join(invocation.errors))
            if cause is not None:
                said = f"{cause.says} ({macro}'s last step begun: {steps[-1]['doing'] if steps else 'none yet'})."
            elif steps:
                said = steps[-1]["if_it_fails"]
            else:
                said = f"dbt run-operation {macro} failed."
            error = BackfillError(f"{said}\n" + "\n".join(invocation.errors))
            error.cause, error.last_step, error.database_errors = cause, steps[-1] if steps else None, invocation.errors
            raise error
        return invocation


def dbt_executable() -> str:
    """The `dbt` a user of this environment would run."""
    beside_python = Path(sys.executable).with_name("dbt")
    if beside_python.exists():
        return str(beside_python)
    found = shutil.which("dbt")
    if not found:
        raise BackfillError("dbt is not installed in this environment (pip install dbt-core and an adapter).")
    return found


def run_dbt_as_a_user(options: DbtOptions, command: Sequence[str]) -> subprocess.CompletedProcess:
    """`dbt <command>` in a process of its own, as the user runs their scheduled job (the demo's `dbt run`): its
    connections and file locks end with it, before dbt-backfill's own commands start."""
    return subprocess.run(  # the caller reads the exit status: a failed user run is reported, not raised
        [dbt_executable(), *command, *options.flags()],
        check=False,
        capture_output=True,
        text=True,
        stdin=subprocess.DEVNULL,
        cwd=options.project_dir,
    )
