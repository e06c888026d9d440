"""What the CLI decides before any SQL, tested in process (click's CliRunner): no database, no dbt invocation."""

import re
import shutil
from pathlib import Path

import yaml
from click.testing import CliRunner
from dbt_backfill.cli import main
from dbt_backfill.packet import Packet

EXAMPLES = Path(__file__).resolve().parents[1] / "docs" / "examples"


def test_outside_any_dbt_project_the_cli_says_so_and_where_it_looked(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("DBT_PROJECT_DIR", raising=False)
    result = CliRunner().invoke(main, ["plan", "fct_trips", "--partitions", "2026-03-01"])
    assert result.exit_code == 1, result.output
    assert result.output.strip() == (
        f"error: no dbt project found: no dbt_project.yml in {tmp_path.resolve()} and every directory above it. Run "
        f"dbt-backfill inside your dbt project, or name it with --project-dir (or DBT_PROJECT_DIR). Nothing was read "
        f"or written."
    )
    named = CliRunner().invoke(main, ["history", "--project-dir", str(tmp_path / "nowhere")])
    assert named.exit_code == 1
    assert f"no dbt_project.yml in {(tmp_path / 'nowhere').resolve()}. Run dbt-backfill" in named.output


def test_a_packet_reviewed_restructure_first_is_approved_only_with_a_reason_recorded(tmp_path):
    path = tmp_path / "spark.yml"
    shutil.copy(EXAMPLES / "fct_trips__seed_spark.yml", path)
    before = path.read_text()
    review = yaml.safe_load(before)["review"]
    assert review["verdict"] == "RESTRUCTURE FIRST"

    refused = CliRunner().invoke(main, ["approve", str(path), "--by", "Dana Owner"])

    assert refused.exit_code == 3, refused.output
    assert refused.output.strip() == (
        f"refused: the plan's review judged this packet RESTRUCTURE FIRST ({review['reason']}). Approve it only "
        f'knowing why: --despite "<reason>" (recorded with the approval). The packet is unchanged.'
    )
    assert path.read_text() == before

    approved = CliRunner().invoke(
        main, ["approve", str(path), "--by", "Dana Owner", "--despite", "the job is paused for the apply"]
    )

    assert approved.exit_code == 0, approved.output
    assert (
        f"Its review: RESTRUCTURE FIRST ({review['reason']}); approved despite it: the job is paused for the apply."
    ) in approved.output
    approval = Packet.read(path).approval
    assert (
        approval.despite == "the job is paused for the apply" and approval.packet_sha256 == Packet.read(path).sha256()
    )


def test_a_safe_packet_s_approval_repeats_its_verdict(tmp_path):
    path = tmp_path / "seed.yml"
    shutil.copy(EXAMPLES / "fct_trips__seed.yml", path)
    data = yaml.safe_load(path.read_text())
    data["approval"] = None
    path.write_text(yaml.safe_dump(data, sort_keys=False))
    approved = CliRunner().invoke(main, ["approve", str(path), "--by", "Dana Owner"])
    assert approved.exit_code == 0, approved.output
    assert f"Its review: SAFE TO RUN ({data['review']['reason']})." in approved.output
    assert Packet.read(path).approval.despite is None


def plan_with(tmp_path, monkeypatch, *args):
    """`dbt-backfill plan fct_trips ARGS` where no dbt project is: what the CLI decides of the partitions comes first."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("DBT_PROJECT_DIR", raising=False)
    return CliRunner().invoke(main, ["plan", "fct_trips", *args])


def test_the_file_and_the_package_refuse_the_same_hidden_characters_code_point_by_code_point():
    """A partitions file is read by the CLI (its line and column) and every value by the package
    (_partition_items): one set of characters, Unicode's control, format and separator categories, checked here over
    every code point so the two can never refuse different ones (issue 56, item 4)."""
    import sys

    from dbt_backfill.workflow.plan import hidden_character

    macro = (Path(__file__).resolve().parents[1] / "macros" / "spec" / "_partition_items.sql").read_text()
    jinja_literal = re.search(r"modules\.re\.search\('(\[[^']+\])', item\)", macro).group(1)
    package = re.compile(jinja_literal.replace("\\\\", "\\"))  # the Jinja string's \\ is one backslash
    differ = [
        code
        for code in range(sys.maxunicode + 1)
        if 0xD800 > code or code > 0xDFFF
        if bool(package.search(chr(code))) != bool(hidden_character(chr(code)))
    ]
    assert not differ, [f"U+{code:04X}" for code in differ[:20]]


def test_a_partitions_file_is_split_at_newlines_alone_and_refuses_what_is_not_plain_text_by_position(
    tmp_path, monkeypatch
):
    listed = tmp_path / "days.txt"
    listed.write_bytes(b"2026-03-01\r\n\n2026-03-02..2026-03-04\n")
    read = plan_with(tmp_path, monkeypatch, "--partitions-file", str(listed))
    # the file was read (the package expands its values: tests/test_two_paths.py); the project is what is missing
    assert read.exit_code == 1 and "no dbt project found" in read.output, read.output
    for content, line, column, what in (
        (b"2026-03-01\n2026-03-02\x0b2026-03-03\n", 2, 11, "a control character (U+000B)"),
        ("2026-03-01\n2026-03-02\u00852026-03-03\n".encode(), 2, 11, "a control character (U+0085)"),
        (b"\xef\xbb\xbf2026-03-01\n", 1, 1, "a byte-order mark (U+FEFF)"),
        (b"2026-03-01\n2026-03\x00-02\n", 2, 8, "a control character (U+0000)"),
    ):
        listed.write_bytes(content)
        refused = plan_with(tmp_path, monkeypatch, "--partitions-file", str(listed))
        assert refused.exit_code == 1, refused.output
        assert refused.output == (
            f"error: --partitions-file {listed}, line {line}, column {column}: {what}. Write "
            f"one value or range per line, in plain text. Nothing was changed.\n"
        )


# -- refusals decided before dbt runs: the packet file, the approval's gates (they ran once on DuckDB in
# test_refusals.py; what they read is a file, never a table). The partitions named are read by the package:
# tests/test_two_paths.py ----------------------------------------------------------------------------------------


def test_a_packet_that_does_not_exist_is_named_by_every_command_that_reads_one(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("DBT_PROJECT_DIR", raising=False)
    missing = tmp_path / "nope.yml"
    for command in ("apply", "verify", "rollback", "status"):
        result = CliRunner().invoke(main, [command, str(missing)])
        assert result.exit_code == 1, (command, result.output)
        assert result.output == f"error: no packet at {missing}. The target is unchanged.\n", command
    assert not missing.exists()


def test_a_packet_whose_gate_failed_is_for_review_only_and_approve_leaves_it_as_it_was(tmp_path):
    path = tmp_path / "gated.yml"
    data = yaml.safe_load((EXAMPLES / "fct_trips__seed.yml").read_text())
    data["approval"] = None
    # as a plan writes a gate that failed: the review BLOCK, and what approve and apply say of it
    data["gates"][0]["passed"] = False
    gate = data["gates"][0]
    says = (
        f"reconciliation gate(s) of meta.backfill.checks failed ({gate['check']} on {gate['partition']}: 0, expected "
        f"1). The packet is for review only: approve and apply refuse it. Fix the cause and plan again. The target is "
        f"unchanged."
    )
    data["review"].update({"verdict": "BLOCK", "refusal": {"reason": "gate_failed", "message": says}})
    path.write_text(yaml.safe_dump(data, sort_keys=False))
    before = path.read_text()

    refused = CliRunner().invoke(main, ["approve", str(path), "--by", "Dana"])

    assert refused.exit_code == 3, refused.output
    assert refused.output == f"refused: {says}\n"
    assert path.read_text() == before


def test_the_database_s_own_words_name_why_it_stopped_a_command_a_deadlock_included():
    """causes.classify reads PostgreSQL's error text; a deadlock (40P01) is said as one, not as the step's failure
    (an attack of 2026-12-07 ended apply in one, with a session that wrote to the target first and asked for the
    backfill lock second)."""
    from dbt_backfill.causes import classify

    said = {
        "deadlock detected\nDETAIL:  Process 27883 waits for ShareRowExclusiveLock on relation 16395": "deadlock",
        "canceling statement due to lock timeout": "lock_timeout",
        "server closed the connection unexpectedly": "connection_lost",
        'invalid input syntax for type date: "x"': None,
    }
    assert {text: (cause.kind if (cause := classify(text)) else None) for text in said} == said
    assert classify("deadlock detected").says.startswith("the database ended a deadlock with another session")
