"""The packet's hash and approval binding, the scope's resolution, and one version everywhere: pure Python."""

import dataclasses
import datetime as dt
import json
import re
from pathlib import Path

import dbt_backfill
import pytest
import yaml
from dbt_backfill.dbt_runner import _each_text, recordable_vars, redact, require_supported_adapter
from dbt_backfill.errors import BackfillError, BackfillRefused
from dbt_backfill.fingerprint import Fingerprint
from dbt_backfill.packet import Changes, Packet, PacketFile, PartitionPlan, RelationRef
from dbt_backfill.workflow.approval import approval_problem
from dbt_backfill.workflow.approve import approve as approve_packet
from dbt_common.exceptions.base import scrub_secrets

REPO = Path(__file__).resolve().parent.parent
NOW = dt.datetime(2026, 3, 25, 12, 0, tzinfo=dt.timezone.utc)


def approve(path, by, **options):
    """approve as the CLI calls it: the packet read from its file once, then approved."""
    return approve_packet(PacketFile.read(path), by, **options)


def fingerprint(rows=5, total="134.00", sha="ab" * 32):
    return Fingerprint(
        row_count=rows, null_keys=0, duplicate_keys=0, totals={"fare": total}, sha256=sha, algorithm="dbt_backfill/v1"
    )


def make_packet():
    stage = RelationRef("db", "analytics_backfill", "fct_trips__r__p0_a")
    partition = PartitionPlan(
        value="2026-03-01",
        stage=stage,
        stage_b=RelationRef("db", "analytics_backfill", "fct_trips__r__p0_b"),
        backup=RelationRef("db", "analytics_backfill", "fct_trips__r__p0_backup"),
        builds={"a": fingerprint(), "b": fingerprint()},
        fingerprint=fingerprint(),
        target_before=fingerprint(total="152.00", sha="cd" * 32),
        changes=Changes(0, 0, 1, ()),
    )
    return Packet(
        run_id="r",
        created_at=NOW.isoformat(),
        model="fct_trips",
        target=RelationRef("db", "analytics", "fct_trips"),
        adapter="postgres",
        dbt_target=None,
        partition_by="trip_date",
        business_key=("trip_id",),
        order_by=("updated_at",),
        additive=("fare",),
        exclude_columns=(),
        material_columns=("fare", "trip_id"),
        code={"compiled_sql_sha256": "00", "git_commit": None, "dbt_backfill_version": "0.1.0"},
        source={"relations": ["db.raw.trip_events"], "reads": [], "after_build": {}},
        partitions=(partition,),
    )


def test_packet_round_trips_through_yaml_with_the_same_sha256(tmp_path):
    packet = dataclasses.replace(
        make_packet(),
        review={"verdict": "SAFE TO RUN", "reason": "r", "checks": [{"number": 1, "severity": "ok"}]},
        cost={"total": {"build_read_rows": 38}},
        gates=({"check": "row_count_change_pct", "passed": True},),
        control={"value": "2026-02-28", "fingerprint": fingerprint().to_dict()},
        downstream=({"model": "daily_fares", "mapping": "same_partitions"},),
        batch_size=2,
        cascade_of={"run_id": "root", "packet_sha256": "ef" * 32},
    )
    path = tmp_path / "p.yml"
    packet.write(path)
    assert Packet.read(path) == packet
    assert Packet.read(path).sha256() == packet.sha256()


def test_reformatting_the_yaml_keeps_the_approval_but_any_edit_voids_it(tmp_path):
    path = tmp_path / "p.yml"
    make_packet().write(path)
    approved = approve(path, "Dana Owner", now=NOW).packet
    assert approval_problem(approved) is None

    data = yaml.safe_load(path.read_text())
    path.write_text(yaml.safe_dump(data, sort_keys=True, default_flow_style=True))
    assert approval_problem(Packet.read(path)) is None

    data["partitions"][0]["fingerprint"]["totals"]["fare"] = "135.00"
    path.write_text(yaml.safe_dump(data))
    assert "edited after approval" in approval_problem(Packet.read(path))


def test_approving_twice_or_without_a_name_is_an_error_and_an_edited_approved_packet_is_refused(tmp_path):
    path = tmp_path / "p.yml"
    make_packet().write(path)
    with pytest.raises(BackfillError, match="must name the person"):
        approve(path, "  ")
    approve(path, "Dana Owner", now=NOW)
    with pytest.raises(BackfillError, match="already approved by Dana Owner"):
        approve(path, "Eve")
    data = yaml.safe_load(path.read_text())
    data["partitions"][0]["value"] = "2026-03-02"
    path.write_text(yaml.safe_dump(data))
    with pytest.raises(BackfillRefused, match="edited after approval"):
        approve(path, "Eve")


def test_a_packet_with_unknown_fields_or_another_version_is_rejected(tmp_path):
    path = tmp_path / "p.yml"
    make_packet().write(path)
    data = yaml.safe_load(path.read_text())
    path.write_text(yaml.safe_dump({**data, "skip_checks": True}))
    with pytest.raises(BackfillError, match="unknown field"):
        Packet.read(path)
    path.write_text(yaml.safe_dump({**data, "version": 2}))
    with pytest.raises(BackfillError, match="version 2 is not supported"):
        Packet.read(path)
    with pytest.raises(BackfillError, match="no packet at"):
        Packet.read(tmp_path / "missing.yml")


def test_fingerprints_compare_as_values():
    assert fingerprint() == fingerprint()
    assert fingerprint() != fingerprint(total="134.0")
    assert Fingerprint.from_dict(fingerprint().to_dict()) == fingerprint()
    # a fingerprint that did not count duplicate keys (a target's) equals the build's that did, row for row
    uncounted = Fingerprint.from_dict({**fingerprint().to_dict(), "duplicate_keys": None})
    assert uncounted.duplicate_keys is None and uncounted == fingerprint()
    assert Fingerprint.from_dict({**fingerprint().to_dict(), "duplicate_keys": 2}) != fingerprint()
    assert uncounted != fingerprint(total="134.0")


def test_secret_environment_values_are_redacted():
    env = {"DBT_ENV_SECRET_PG": "hunter2-secret", "PGPASSWORD": "s3cr3t!", "HOME": "/root"}
    assert redact("login hunter2-secret with s3cr3t! at /root", env) == "login **** with **** at /root"


def test_a_secret_a_result_carries_escaped_in_its_json_is_masked_once_decoded():
    """A helper's attack (2026-12-08): a result arrives on dbt's log as JSON text, masked as a line; a secret holding a
    quote, a backslash or a character beyond ASCII is escaped there, not found, and came back whole once decoded."""
    secret = 'pässwort"x\\y'
    line = json.dumps({"sample": f"fare of {secret}", "list": [secret, {secret: 1}]})
    assert secret not in line and json.loads(scrub_secrets(line, [secret]))["list"][0] == secret  # the line's mask
    masked = _each_text(json.loads(scrub_secrets(line, [secret])), lambda text: scrub_secrets(text, [secret]))
    assert masked == {"sample": "fare of *****", "list": ["*****", {"*****": 1}]}


def test_a_packets_vars_are_passed_on_unless_masked_or_the_packages_own():
    """A command on a packet passes dbt the plan's --vars when given none (DECISIONS row 161), except vars dbt masked
    as a secret's, and vars setting the package's own: where the audit trail is read and what an approval must be
    are the operator's to say, not the file's being checked (a helper's attack: an edited packet naming the audit
    schema in which a forged `planned` row waits)."""
    given = "{variant_alias: fct_trips_aliased, window: {before: 1}}"
    assert dataclasses.replace(make_packet(), dbt_vars=given).vars_passed_on() == given
    assert make_packet().vars_passed_on() is None
    for withheld in ('{note: "*****"}', "{dbt_backfill_audit_schema: elsewhere}", "{DBT_BACKFILL_APPROVAL: {}}", "[1]"):
        assert dataclasses.replace(make_packet(), dbt_vars=withheld).vars_passed_on() is None, withheld
    # and a plan records no vars that hold a secret's value, as written or as YAML reads them (escaped, a character
    # beyond ASCII): they cannot be masked inside YAML text the way dbt masks a line
    env = {"DBT_ENV_SECRET_NOTE": 'pässwort"x', "HOME": "/root"}
    assert recordable_vars(given, env) == given and recordable_vars(None, env) is None
    for holding in (
        '{note: "pässwort\\"x"}',
        '{note: "p\\xe4sswort\\"x"}',
        "{n: 'pässwort\"x'}",
        '{"pässwort\\"x": 1}',
    ):
        assert recordable_vars(holding, env) is None, holding


def test_package_and_plugin_carry_one_version():
    project = yaml.safe_load((REPO / "dbt_project.yml").read_text())["version"]
    pyproject = re.search(r'^version = "([^"]+)"', (REPO / "pyproject.toml").read_text(), re.M).group(1)
    macro = re.search(r"return\('([^']+)'\)", (REPO / "macros/utils/_version.sql").read_text()).group(1)
    assert project == pyproject == macro == dbt_backfill.__version__


def test_an_adapter_without_an_implementation_is_refused_before_anything_runs():
    require_supported_adapter("postgres")
    require_supported_adapter("duckdb")
    with pytest.raises(BackfillError, match="supports postgres, duckdb, spark; this project's target uses snowflake"):
        require_supported_adapter("snowflake")


def test_a_packet_whose_gate_failed_cannot_be_approved(tmp_path):
    """Refused in the words the package's review recorded in the packet (macros/review/_review_refusal.sql), which
    apply_backfill says too; a packet written before the review recorded them is refused on its verdict."""
    said = (
        "reconciliation gate(s) of meta.backfill.checks failed (no_new_nulls:fare on 2026-03-01: 2, expected 0). "
        "The packet is for review only: approve and apply refuse it. Fix the cause and plan again. The target is "
        "unchanged."
    )
    recorded = {"verdict": "BLOCK", "reason": "x", "checks": [], "refusal": {"reason": "gate_failed", "message": said}}
    written_before = {"verdict": "BLOCK", "reason": "Bounded, verifiable, reversible: reconciliation gate failed"}
    for review, reason, says in (
        (recorded, "gate_failed", said),
        (
            written_before,
            "review_blocked",
            "the review judged the plan BLOCK (Bounded, verifiable, reversible: reconciliation gate failed). The "
            "packet is for review only: approve and apply refuse it. Fix the cause and plan again. The target is "
            "unchanged.",
        ),
    ):
        path = tmp_path / "p.yml"
        dataclasses.replace(make_packet(), review=review).write(path)
        with pytest.raises(BackfillRefused) as refused:
            approve(path, "Dana Owner", now=NOW)
        assert (refused.value.reason, str(refused.value)) == (reason, says)
        assert Packet.read(path).approval is None


def test_a_packet_with_yaml_aliases_or_of_an_unplanned_size_is_refused_before_it_is_expanded(tmp_path):
    """Twelve levels of nine aliases each are 9**12 strings once expanded: refused on the first alias, at once."""
    bomb = tmp_path / "bomb.yml"
    levels = ["a0: &a0 [x, x, x, x, x, x, x, x, x]"]
    levels += [f"a{i}: &a{i} [{', '.join([f'*a{i - 1}'] * 9)}]" for i in range(1, 12)]
    bomb.write_text("\n".join(levels) + "\n")
    with pytest.raises(BackfillError, match=r"is not valid YAML .*a packet holds no YAML aliases"):
        approve(bomb, "Dana Owner")
    huge = tmp_path / "huge.yml"
    huge.write_text("run_id: r\nnote: " + "x" * (16 * 1024 * 1024) + "\n")
    with pytest.raises(BackfillError, match="more than any packet a plan writes"):
        approve(huge, "Dana Owner")


def test_a_packet_is_written_without_aliases_even_where_values_repeat(tmp_path):
    packet = make_packet()
    repeated = dataclasses.replace(packet, review={"checks": [{"a": 1}], "same": {"a": 1}})
    shared = {"x": [1, 2]}
    repeated = dataclasses.replace(repeated, source={"relations": [], "reads": [shared, shared], "after_build": {}})
    path = tmp_path / "p.yml"
    repeated.write(path)
    assert "&id" not in path.read_text() and "*id" not in path.read_text()
    assert Packet.read(path).sha256() == repeated.sha256()


def test_out_never_names_a_file_a_plan_did_not_make(tmp_path):
    from dbt_backfill.workflow.plan import check_out_path

    notes = tmp_path / "NOTES.md"
    notes.write_text("my notes\n")
    with pytest.raises(BackfillError, match="a packet is YAML"):
        check_out_path(tmp_path / "x.md")
    with pytest.raises(BackfillError, match=r"NOTES\.md exists and is no packet's written plan"):
        check_out_path(tmp_path / "NOTES.yml")
    mine = tmp_path / "mine.yml"
    mine.write_text("owner: me\n")
    with pytest.raises(BackfillError, match="that file exists and is not a packet"):
        check_out_path(mine)
    make_packet().write(tmp_path / "again.yml")
    check_out_path(tmp_path / "again.yml")  # planning again over an earlier packet is allowed
    assert notes.read_text() == "my notes\n" and mine.read_text() == "owner: me\n"


def test_the_commitments_buckets_keep_each_aggregate_to_about_4096_digests():
    from reference_fingerprint import commitment_bucket_digits

    assert [commitment_bucket_digits(n) for n in (0, 4096, 4097, 65536, 65537, 10**7, 10**12)] == [0, 0, 1, 1, 2, 3, 4]


def test_data_values_reach_the_terminal_escaped_and_bounded():
    from dbt_backfill.shown import shown

    assert shown("18.00") == "18.00" and shown("2026-03-01") == "2026-03-01" and shown(None) == "NULL"
    assert shown("a\nb") == '"a\\nb"'
    assert shown("\x1b[2J\x9b\u202e") == '"\\u001b[2J\\u009b\\u202e"'
    assert shown("x" * 500) == "x" * 80 + "…"
