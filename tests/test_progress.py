"""What a person watches while a command runs, and what --timings measures (issue 57, items 3 and 4). The progress
line and the timings' table are fed fakes in process (a clock, MacroResults, events shaped as dbt's), no database;
one real plan on DuckDB checks that the figures are dbt's own."""

import io
import json
from types import SimpleNamespace

import pytest
from backends import ENGINE_INDEPENDENT
from click.testing import CliRunner
from conftest import trips_on
from dbt_backfill import progress
from dbt_backfill.cli import main
from dbt_backfill.dbt_runner import DbtOptions, DbtRunner, InvocationTiming, MacroResult, Timings, _Read
from dbt_backfill.errors import BackfillRefused
from dbt_backfill.progress import Progress, about, timings_json, timings_text

trips = trips_on(ENGINE_INDEPENDENT)


class Terminal(io.StringIO):
    """stderr as a terminal: what the progress line is written to."""

    def isatty(self):
        return True


class Clock:
    def __init__(self):
        self.now = 1000.0

    def __call__(self):
        return self.now


def shown(stream):
    """Each state of the line a person saw, in order (each write starts with a carriage return)."""
    return [chunk.rstrip() for chunk in stream.getvalue().split("\r")[1:] if chunk.strip()]


def progressed(step, partition, done, of):
    return MacroResult("progress", {"step": step, "partition": partition, "done": done, "of": of})


def step(doing):
    return MacroResult("step", {"doing": doing, "if_it_fails": "it failed"})


def test_the_line_names_the_step_the_partition_the_count_and_the_time_left():
    stream, clock = Terminal(), Clock()
    line = Progress("plan", stream, clock=clock, width=200)
    line(step("pinning the source"))
    for done, day in enumerate(("2026-01-01", "2026-01-02", "2026-01-03", "2026-01-04")):
        line(progressed("building stage a", day, done, 4))
        line(step(f"building stage a of partition {day}"))  # the partition's own work: the progress keeps the line
        clock.now += 10
    line(step("finding the values that hold no rows"))  # the last partition begun, a step beyond it takes the line
    clock.now = 2000.0
    line(progressed("building stage b", "2026-01-01", 0, 4))
    clock.now += 60
    line(progressed("building stage b", "2026-01-03", 2, 4))  # 30 s a partition since the step began
    assert shown(stream) == [
        "plan: pinning the source",
        "plan: building stage a, partition 2026-01-01 (1 of 4)",
        "plan: building stage a, partition 2026-01-02 (2 of 4; about 30 s left)",
        "plan: building stage a, partition 2026-01-03 (3 of 4; about 20 s left)",
        "plan: building stage a, partition 2026-01-04 (4 of 4; about 10 s left)",
        "plan: finding the values that hold no rows",
        "plan: building stage b, partition 2026-01-01 (1 of 4)",
        "plan: building stage b, partition 2026-01-03 (3 of 4; about 1 min left)",
    ]
    # each rewrite covers what was longer before it; the end clears the line and leaves the cursor at its start
    last = "plan: building stage b, partition 2026-01-03 (3 of 4; about 1 min left)"
    line.close()
    assert stream.getvalue().endswith("\r" + last + "\r" + " " * len(last) + "\r")
    assert "\n" not in stream.getvalue()


def test_a_step_s_clock_starts_again_when_its_count_goes_back_or_begins_past_zero():
    stream, clock = Terminal(), Clock()
    line = Progress("apply", stream, clock=clock, width=200)
    for done in range(3):  # the root's partitions, 100 s each
        line(progressed("writing the approved rows", f"2026-03-0{done + 1}", done, 3))
        clock.now += 100
    line(progressed("writing the approved rows", "2026-03-01", 0, 3))  # a cascade's next model: the count went back
    clock.now += 5
    line(progressed("writing the approved rows", "2026-03-02", 1, 3))
    line(progressed("writing the approved rows", "2026-03-05", 4, 10))  # an apply resumed past four partitions
    clock.now += 20
    line(progressed("writing the approved rows", "2026-03-06", 5, 10))
    assert [text.removeprefix("apply: writing the approved rows, partition ") for text in shown(stream)] == [
        "2026-03-01 (1 of 3)",
        "2026-03-02 (2 of 3; about 3 min left)",
        "2026-03-03 (3 of 3; about 2 min left)",
        "2026-03-01 (1 of 3)",
        "2026-03-02 (2 of 3; about 10 s left)",
        "2026-03-05 (5 of 10)",
        "2026-03-06 (6 of 10; about 2 min left)",  # 20 s a partition since the step began at 4, 5 to finish
    ]


def test_times_left_are_said_as_a_person_says_them_and_a_long_line_is_cut_to_the_terminal():
    assert [about(s) for s in (0.2, 40.4, 59.4, 90, 600, 3590, 3900)] == [
        "1 s",
        "40 s",
        "59 s",
        "2 min",
        "10 min",
        "1 h",
        "1 h 5 min",
    ]
    stream = Terminal()
    line = Progress("plan", stream, width=30)
    line(progressed("building stage a", "2026-01-01", 0, 100))
    assert shown(stream) == ["plan: building stage a, part…"]
    assert len(shown(stream)[0]) == 29  # one column short: a line that wrapped could not be rewritten in place


def test_the_line_is_drawn_only_on_a_terminal_for_plan_apply_and_rollback_and_never_with_json(monkeypatch):
    monkeypatch.setenv("COLUMNS", "57")
    assert isinstance(Progress.on_terminal("plan", as_json=False, stream=Terminal()), Progress)
    assert isinstance(Progress.on_terminal("apply", as_json=False, stream=Terminal()), Progress)
    assert isinstance(Progress.on_terminal("rollback", as_json=False, stream=Terminal()), Progress)
    assert Progress.on_terminal("plan", as_json=False, stream=io.StringIO()) is None  # a pipe, a file, a CI log
    assert Progress.on_terminal("plan", as_json=True, stream=Terminal()) is None
    assert Progress.on_terminal("verify", as_json=False, stream=Terminal()) is None
    assert Progress("plan", Terminal())._columns() == 57  # no file descriptor: COLUMNS (set above), else 80
    closed = io.StringIO()
    closed.close()  # its isatty raises
    assert Progress.on_terminal("plan", as_json=False, stream=closed) is None
    assert Progress.on_terminal("plan", as_json=False, stream=SimpleNamespace()) is None  # no isatty at all


# -- the runner's side: what dbt's callback does with the observer and the SQL timings --------------------------------


def event(name, msg="", level="debug", **data):
    return SimpleNamespace(info=SimpleNamespace(name=name, msg=msg, level=level), data=SimpleNamespace(**data))


def sentinel(kind, payload):
    return f"<<dbt_backfill:{kind}>>{json.dumps(payload)}<</dbt_backfill>>"


def test_a_failing_observer_never_reaches_dbt_and_the_results_are_read_all_the_same(tmp_path):
    seen = []

    def observer(result):
        seen.append(result)
        raise RuntimeError("the terminal went away")

    runner = DbtRunner(DbtOptions(tmp_path), observer=observer)
    read = _Read()
    on_event = runner._listener(read)
    payload = {"step": "building stage a", "partition": "2026-01-01", "done": 0, "of": 2}
    on_event(event("JinjaLogDebug", sentinel("progress", payload)))  # raises nothing into dbt
    on_event(event("JinjaLogDebug", sentinel("step", {"doing": "comparing", "if_it_fails": "x"})))
    assert [r.kind for r in read.results] == ["progress", "step"]
    assert seen == [MacroResult("progress", payload)]  # a display that failed once is not called again
    assert runner.observer is None and read.unreadable == [] and read.errors == []


def test_the_sql_time_is_what_dbt_logged_of_each_statement(tmp_path):
    runner = DbtRunner(DbtOptions(tmp_path), observer=lambda result: None)
    read = _Read()
    on_event = runner._listener(read)
    on_event(event("SQLQuery", "select 1"))
    on_event(event("SQLQueryStatus", "OK in 0.25s", elapsed=0.25))
    on_event(event("SQLQueryStatus", "OK in 1.5s", elapsed=1.5))
    on_event(SimpleNamespace(info=SimpleNamespace(name="SQLQueryStatus", msg="", level="debug")))  # no data: skipped
    assert (read.sql_s, read.statements) == (1.75, 2)
    assert read.unreadable == []  # a figure never fails the command


# -- the timings' table and document -----------------------------------------------------------------------------

TIMINGS = Timings(
    import_s=1.234,
    invocations=[
        InvocationTiming("parse", 0.8, 0.0, 0),
        InvocationTiming("resolve_plan", 0.4123, 0.05, 3),
        InvocationTiming("compile", 0.5, 0.01, 1),
        InvocationTiming("plan_stages", 12.25, 9.5, 120),
    ],
)


def test_the_timings_table_lists_the_import_the_parse_and_each_invocation_with_its_sql_time():
    assert timings_text(TIMINGS) == "\n".join(
        [
            "Timings: importing dbt 1.23 s.",
            "dbt invocation      wall  SQL logged  statements",
            "---------------  -------  ----------  ----------",
            "parse             0.80 s           -           0",
            "resolve_plan      0.41 s      0.05 s           3",
            "compile           0.50 s      0.01 s           1",
            "plan_stages      12.25 s      9.50 s         120",
            "---------------  -------  ----------  ----------",
            "all invocations  13.96 s      9.56 s         124",
        ]
    )
    assert timings_text(Timings()) == "Timings: dbt was not invoked."
    warm = Timings(import_s=0.0001, imported_before=True, invocations=TIMINGS.invocations[:1])
    assert timings_text(warm).splitlines()[0] == "Timings: importing dbt 0.00 s (already imported)."
    assert timings_json(TIMINGS) == {
        "import_dbt_s": 1.234,
        "dbt_imported_before": False,
        "parse_s": 0.8,
        "invocations": [
            {"name": "parse", "wall_s": 0.8, "sql_s": 0.0, "statements": 0},
            {"name": "resolve_plan", "wall_s": 0.412, "sql_s": 0.05, "statements": 3},
            {"name": "compile", "wall_s": 0.5, "sql_s": 0.01, "statements": 1},
            {"name": "plan_stages", "wall_s": 12.25, "sql_s": 9.5, "statements": 120},
        ],
        "total_wall_s": 13.962,
        "total_sql_s": 9.56,
        "total_statements": 124,
    }


# -- the commands: CliRunner, the workflow replaced by a fake that feeds the runner as dbt would -------------------

HISTORY = {"audits": ["analytics.dbt_backfill_audit"], "looked_in": [], "events": []}


@pytest.fixture
def project(tmp_path, monkeypatch):
    """A directory dbt-backfill takes for a dbt project (nothing in it is parsed: the workflow is a fake)."""
    (tmp_path / "dbt_project.yml").write_text("name: fake\n")
    monkeypatch.chdir(tmp_path)
    for variable in ("DBT_PROJECT_DIR", "DBT_PROFILES_DIR", "DBT_TARGET"):
        monkeypatch.delenv(variable, raising=False)
    return tmp_path


def fake_history(runner, model, run_id=None, since=None, limit=1000):
    runner.timings.import_s = 0.5
    runner.timings.invocations.append(InvocationTiming("parse", 1.0, 0.0, 0))
    runner.timings.invocations.append(InvocationTiming("backfill_history", 2.0, 0.75, 4))
    return HISTORY


def test_timings_add_a_key_to_the_json_only_when_asked_and_end_the_text_with_the_table(project, monkeypatch):
    monkeypatch.setattr("dbt_backfill.workflow.history.history", fake_history)
    plain = CliRunner().invoke(main, ["history", "fct_trips", "--json"])
    assert plain.exit_code == 0, plain.output
    assert json.loads(plain.stdout) == HISTORY  # the document as it always was: no `timings`
    timed = CliRunner().invoke(main, ["history", "fct_trips", "--json", "--timings"])
    assert timed.exit_code == 0, timed.output
    document = json.loads(timed.stdout)
    assert document.pop("timings")["invocations"] == [
        {"name": "parse", "wall_s": 1.0, "sql_s": 0.0, "statements": 0},
        {"name": "backfill_history", "wall_s": 2.0, "sql_s": 0.75, "statements": 4},
    ]
    assert document == HISTORY and timed.stderr == ""
    text = CliRunner().invoke(main, ["history", "fct_trips", "--timings"])
    assert text.exit_code == 0, text.output
    assert text.stdout.startswith("Audit trail in analytics.dbt_backfill_audit for fct_trips: 0 event(s).")
    assert text.stderr.splitlines()[0] == "Timings: importing dbt 0.50 s."
    assert text.stderr.splitlines()[-1].split() == ["all", "invocations", "3.00", "s", "0.75", "s", "4"]


def fake_plan(runner, request):
    """A plan that stops at its second partition, as a refusal would, after the package said where it was."""
    runner._observed(MacroResult("step", {"doing": "resolving the plan", "if_it_fails": "x"}))
    for done, day in enumerate(("2026-03-01", "2026-03-02")):
        runner._observed(progressed("building stage a", day, done, 3))
    runner.timings.import_s = 0.25
    raise BackfillRefused("builds_differ", "the two builds of 2026-03-02 differ. The target is unchanged.")


def test_plan_draws_its_line_on_a_terminal_and_clears_it_before_the_refusal(project, monkeypatch):
    monkeypatch.setattr("dbt_backfill.workflow.plan.plan", fake_plan)
    arguments = ["plan", "fct_trips", "--partitions", "2026-03-01"]
    # CliRunner's stderr is no terminal: nothing but the refusal
    piped = CliRunner().invoke(main, arguments)
    assert (
        piped.exit_code == 3
        and piped.stderr == "refused: the two builds of 2026-03-02 differ. The target is unchanged.\n"
    )

    monkeypatch.setattr(progress, "_a_terminal", lambda stream: True)
    watched = CliRunner().invoke(main, arguments)
    assert watched.exit_code == 3, watched.output
    drawn, _, said = watched.stderr.rpartition("\r")
    assert said == "refused: the two builds of 2026-03-02 differ. The target is unchanged.\n"
    last = shown(io.StringIO(drawn))[-1]
    # the second of three under way (and, by the real clock, about how long the third takes: a second or so)
    assert last.startswith("plan: building stage a, partition 2026-03-02 (2 of 3"), last
    assert shown(io.StringIO(drawn))[0] == "plan: resolving the plan"
    assert drawn.endswith("\r" + last + "\r" + " " * len(last))  # cleared before the refusal was printed

    as_json = CliRunner().invoke(main, [*arguments, "--json", "--timings"])
    assert as_json.exit_code == 3 and "\r" not in as_json.stderr  # --json: a program reads it, no line
    refused = json.loads(as_json.stdout)
    assert refused["status"] == "refused" and refused["timings"]["import_dbt_s"] == 0.25

    timed = CliRunner().invoke(main, [*arguments, "--timings"])
    ending = timed.stderr.rpartition("\r")[2].splitlines()
    assert ending[0].startswith("refused: ") and ending[1] == "Timings: importing dbt 0.25 s."


# -- one real plan: the figures are dbt's own ----------------------------------------------------------------------


def test_a_real_plan_s_timings_are_dbt_s_invocations_and_its_logged_sql(trips):
    planned = trips.backfill("plan", "fct_trips", "--partitions", "2026-03-01", "--json", "--timings")
    assert planned.returncode == 0, planned.output
    timings = planned.json()["timings"]
    names = [i["name"] for i in timings["invocations"]]
    assert names[0] == "parse" and {"compile", "resolve_plan", "plan_stages"} <= set(names), names
    stages = next(i for i in timings["invocations"] if i["name"] == "plan_stages")
    # every statement the builds, fingerprints and review ran, timed by the adapter: within the invocation's wall
    assert stages["statements"] >= 10 and 0 < stages["sql_s"] <= stages["wall_s"], stages
    assert timings["import_dbt_s"] is not None and timings["parse_s"] == timings["invocations"][0]["wall_s"]
    assert "\r" not in planned.stderr  # not a terminal

    text = trips.backfill("history", "fct_trips", "--timings")
    assert text.returncode == 0, text.output
    table = text.stderr.splitlines()
    assert table[0].startswith("Timings: importing dbt ") and table[-1].startswith("all invocations")
    assert [row.split()[0] for row in table[3:-2]] == ["parse", "backfill_history"], text.stderr


def test_a_partition_value_or_step_holding_control_characters_cannot_move_the_cursor_or_forge_a_line():
    """A text partition value comes from the data (a packet someone else planned): an escape sequence in it would
    retitle the terminal or clear it, and a newline would forge a line the CLI never printed (found by an attack on
    949fa3c). Shown escaped, as every value the CLI prints is (shown.py)."""
    stream = Terminal()
    line = Progress("apply", stream, clock=Clock(), width=200)
    line(progressed("replacing", "x\x1b]0;pwned\x07\x1b[2J\nrefused: nothing", 0, 1))
    line(step("checking partition value \u202etxt.exe\r"))
    written = stream.getvalue()
    assert "\x1b" not in written and "\n" not in written and "\x07" not in written and "\u202e" not in written
    assert written.count("\r") == 2  # the line's own rewrites only
    assert shown(stream) == [
        "apply: replacing, partition x\\u001b]0;pwned\\u0007\\u001b[2J\\u000arefused: nothing (1 of 1)",
        "apply: checking partition value \\u202etxt.exe\\u000d",
    ]
