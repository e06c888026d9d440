"""The approval is a person's act (issue 55, items 1, 2, 5): a model's policy (meta.backfill.approval, or the
project's var dbt_backfill_approval) names who may approve and how many distinct approvers it takes; each proves it
with an SSH key the project's .dbt-backfill/allowed_signers lists (`approve --sign KEY`, OpenSSH's signatures as
`git commit -S` makes them). Every refusal with its exit status, its words and the table's rows: a typed name, an
unlisted key, one person twice toward 2-of-2, a signature over another packet, a signed time edited, a key taken off
the list after it signed, pure dbt's apply (which cannot verify a key). A model without a policy keeps the typed
name and its plan says so."""

from __future__ import annotations

import datetime as dt
import functools
import json
import os
import re
import secrets
import shutil
import subprocess

import pytest
import yaml
from backends import ENGINE_INDEPENDENT, POSTGRES_ONLY
from conftest import trips_on
from dbt_backfill.packet import PacketFile
from dbt_backfill.workflow.approval import signed_text
from documented import REPO, read_page
from project import BIN
from test_tampering import APPLIER_PRIVILEGES, as_role, refused, snapshot

trips = trips_on([*POSTGRES_ONLY, *ENGINE_INDEPENDENT])

DAYS = "2026-03-01..2026-03-02"
POLICY = "\nvars:\n  dbt_backfill_approval: {signers: [dana@example.com, lee@example.com], required: 2}\n"
# what an approver's own login needs to record an approval (approve_backfill): read the table, write the audit row
APPROVER = [
    "grant usage on schema analytics, analytics_backfill to {role}",
    "grant select on analytics.fct_trips to {role}",
    "grant select, insert on analytics_backfill.dbt_backfill_audit to {role}",
]


def key(folder, name):
    """A fresh ed25519 key pair: (private key path, public key line)."""
    path = folder / name
    made = subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", name, "-f", str(path)], check=False)
    assert made.returncode == 0
    return path, (folder / f"{name}.pub").read_text().strip()


def sign(project, packet, private_key, by=()):
    return project.backfill("approve", str(packet), "--sign", str(private_key), *by, dbt_options=False)


@pytest.mark.parametrize("trips", ENGINE_INDEPENDENT, indirect=True)
def test_with_a_policy_only_listed_keys_of_distinct_people_lead_to_a_write(trips, tmp_path):
    # no policy: the plan says any name is accepted (pure dbt's plan, whose written plan is on dbt's log)
    pure = trips.dbt(
        "run-operation", "dbt_backfill.plan_backfill", "--args", json.dumps({"model": "fct_trips", "partitions": DAYS})
    )
    assert pure.returncode == 0, pure.output
    assert (
        "Who may approve: no approval policy is declared (meta.backfill.approval, var dbt_backfill_approval): "
        "any name given to `approve --by` is accepted, and nothing proves who gave it." in pure.output
    )
    run_id, sha256 = pure.result("plan_backfill")["run_id"], pure.result("plan_backfill")["packet_sha256"]

    dana, dana_public = key(tmp_path, "dana")
    dana2, dana2_public = key(tmp_path, "dana2")
    lee, lee_public = key(tmp_path, "lee")
    mallory, _ = key(tmp_path, "mallory")
    (trips.dir / ".dbt-backfill").mkdir()
    signers = trips.dir / ".dbt-backfill" / "allowed_signers"
    listed = f"dana@example.com {dana_public}\ndana@example.com {dana2_public}\nlee@example.com {lee_public}\n"
    signers.write_text(listed)
    with (trips.dir / "dbt_project.yml").open("a") as project_file:
        project_file.write(POLICY)
    before = snapshot(trips)

    # pure dbt cannot run OpenSSH: its apply of a model with a key policy is refused, whatever name it types
    applied = trips.dbt(
        "run-operation",
        "dbt_backfill.apply_backfill",
        "--args",
        json.dumps({"run_id": run_id, "approved_sha256": sha256, "approved_by": "Dana Owner"}),
    )
    assert applied.returncode == 1 and "<<dbt_backfill:refused>>" in applied.output, applied.output
    assert (
        "fct_trips's approval policy requires 2 approval(s) by distinct people (keys listed for dana@example.com, "
        "lee@example.com); this packet has 0: the approval by Dana Owner is a typed name, which proves no one. Each "
        "approver signs with `dbt-backfill approve PACKET --sign KEY` (the CLI verifies the keys; pure dbt cannot "
        "run OpenSSH). The target is unchanged." in applied.output
    )
    assert snapshot(trips) == before

    out = trips.dir / "backfills" / "signed.yml"
    planned = trips.backfill("plan", "fct_trips", "--partitions", DAYS, "--out", str(out))
    assert planned.returncode == 0, planned.output
    assert (
        "Who may approve: 2 approval(s) by distinct people, signed by the keys .dbt-backfill/allowed_signers lists "
        "for dana@example.com, lee@example.com (`dbt-backfill approve PACKET --sign KEY`); a typed name is not "
        "accepted."
    ) in out.with_suffix(".md").read_text()
    packet_text = out.read_text()

    # an unlisted key: refused, the packet as it was
    result = sign(trips, out, mallory)
    refused(result, f"the key {mallory} is not listed in {signers}: its holder is not one who may approve.")
    assert out.read_text() == packet_text and not list((trips.dir / "backfills" / "signed.yml.approvals").glob("*.sig"))

    # one person, two listed keys: counted once toward 2-of-2
    assert sign(trips, out, dana).returncode == 0
    assert yaml.safe_load(out.read_text())["approval"]["approved_by"] == "dana@example.com"
    second = sign(trips, out, dana2)
    assert second.returncode == 0, second.output
    assert "a further approval of packet sha256" in second.stdout
    result = trips.backfill("apply", str(out))
    refused(
        result,
        "this packet has 1 (dana@example.com). Each approver signs with `dbt-backfill approve PACKET --sign KEY`",
    )
    assert snapshot(trips) == before

    # a signature over another packet, put beside this one as Lee's
    approvals = out.with_name("signed.yml.approvals")
    other = tmp_path / "other.txt"
    now = dt.datetime.now(dt.timezone.utc).isoformat(timespec="seconds")
    other.write_bytes(f"dbt-backfill approval\nrun_id: another\npacket_sha256: 0\napproved_at: {now}\n".encode())
    made = subprocess.run(
        ["ssh-keygen", "-Y", "sign", "-f", str(lee), "-n", "dbt-backfill", str(other)], check=False, capture_output=True
    )
    assert made.returncode == 0, made.stderr
    shutil.copy(tmp_path / "other.txt.sig", approvals / "lee@example.com-copied.sig")
    shutil.copy(other, approvals / "lee@example.com-copied.txt")
    result = trips.backfill("apply", str(out))
    refused(
        result,
        f"the signed approval {approvals / 'lee@example.com-copied.sig'} does not hold: it was not made "
        "over this packet (run ",
    )
    assert snapshot(trips) == before
    (approvals / "lee@example.com-copied.sig").unlink()
    (approvals / "lee@example.com-copied.txt").unlink()

    # Lee signs, then withdraws it (approve --revoke), then signs again: two people
    assert sign(trips, out, lee).returncode == 0
    withdrawn = trips.backfill("approve", str(out), "--revoke", "--sign", str(lee), dbt_options=False)
    assert withdrawn.returncode == 0, withdrawn.output
    assert "Removed 2 file(s) of the key's approval beside " in withdrawn.stdout
    refused(trips.backfill("apply", str(out)), "this packet has 1 (dana@example.com).")
    assert snapshot(trips) == before
    assert sign(trips, out, lee).returncode == 0
    # the time Dana signed, edited: the signature no longer holds
    [dana_said] = [p for p in approvals.glob("dana@example.com-*.txt")][:1]
    original = dana_said.read_text()
    edited = (dt.datetime.now(dt.timezone.utc) + dt.timedelta(minutes=1)).isoformat(timespec="seconds")
    dana_said.write_text(re.sub(r"^approved_at: .*$", f"approved_at: {edited}", original, flags=re.M))
    refused(trips.backfill("apply", str(out)), "does not hold: it was not made over this packet")
    dana_said.write_text(original)
    assert snapshot(trips) == before

    # a key taken off the list after it signed: its approval no longer counts (the list at apply decides)
    signers.write_text(listed.replace(f"lee@example.com {lee_public}\n", ""))
    refused(trips.backfill("apply", str(out)), "lists no key that made it (not listed, no longer listed, or not at ")
    assert snapshot(trips) == before
    signers.write_text(listed)

    applied = trips.backfill("apply", str(out))
    assert applied.returncode == 0, applied.output
    repaired = snapshot(trips)
    assert repaired != before
    # the trail says how the approval was proven: each principal, its key and the time it signed
    run = yaml.safe_load(out.read_text())["run_id"]
    [(detail,)] = trips.query(
        f"select detail from analytics_backfill.dbt_backfill_audit where event = 'approved' and run_id = '{run}'"
    )
    assert (
        detail.startswith("approved at ")
        and "(recorded by its first apply; signed by dana@example.com (key SHA256:" in detail
    )
    assert detail.count("dana@example.com (key SHA256:") == 2 and "lee@example.com (key SHA256:" in detail, detail
    # and `partitions` and `history` say it, read back from the trail: each key's fingerprint and principal
    fingerprints = {
        name: subprocess.run(["ssh-keygen", "-l", "-f", str(path) + ".pub"], capture_output=True, text=True,
                             check=True).stdout.split()[1]
        for name, path in (("dana", dana), ("dana2", dana2), ("lee", lee))
    }  # fmt: skip
    proof = re.search(r"proven by (key SHA256:\S+ of \S+(, key SHA256:\S+ of \S+)*)\)", trips.backfill(
        "partitions", "fct_trips", "--partitions", DAYS).stdout)  # fmt: skip
    assert proof and sorted(proof.group(1).split(", ")) == sorted(
        [f"key {fingerprints['dana']} of dana@example.com", f"key {fingerprints['dana2']} of dana@example.com",
         f"key {fingerprints['lee']} of lee@example.com"]
    ), proof  # fmt: skip
    history = trips.backfill("history", "fct_trips", "--run", run, "--json")
    [approved_row] = [e for e in json.loads(history.stdout)["events"] if e["event"] == "approved"]
    assert approved_row["said"] == f"proven by {proof.group(1)}", approved_row

    # a rollback writes too: the same proven approvals, counted by the same rule
    [lee_signature] = approvals.glob("lee@example.com-*.sig")
    kept = lee_signature.read_bytes()
    lee_signature.unlink()
    refused(trips.backfill("rollback", str(out)), "this packet has 1 (dana@example.com).")
    assert snapshot(trips) == repaired
    lee_signature.write_bytes(kept)
    rolled_back = trips.backfill("rollback", str(out))
    assert rolled_back.returncode == 0, rolled_back.output
    assert snapshot(trips) == before


GIT_IGNORED = "target/\nlogs/\ndbt_packages/\n*.duckdb*\nprofiles.yml\n.user.yml\nmerged-packets.txt\n"


def shell(directory, line, env):
    """One documented line, run as written by the shell a reader or a CI job has."""
    return subprocess.run(["bash", "-c", line], cwd=directory, env=env, capture_output=True, text=True, check=False)


def run_block(block, directory, env, last_status=0):
    """Each line of a documented block, in order; each must exit 0 but the last, `last_status`."""
    for number, command in enumerate(block.commands):
        done = shell(directory, command.text, env)
        expected = last_status if number == len(block.commands) - 1 else 0
        assert done.returncode == expected, (command.where(), done.stdout + done.stderr)
    return done


@pytest.mark.parametrize("trips", ENGINE_INDEPENDENT, indirect=True)
def test_the_pull_request_flow_applies_a_signed_packet_on_merge_and_refuses_a_forged_one(trips, tmp_path):
    """docs/approvals.md's blocks, run as written: the planner's branch, the approver's signature, the job on merge.
    Against a local bare repository: a branch whose packet carries a signature copied from another packet is merged
    first, and the job refuses it (nothing written); then the signed branch is merged and applied."""
    planner, approver, job = [b for b in read_page(REPO / "docs" / "approvals.md").blocks if b.in_pull_request]
    home = tmp_path / "home"
    (home / ".ssh").mkdir(parents=True)
    _, dana_public = key(home / ".ssh", "id_ed25519")  # the key the approver block signs with
    env = {
        **trips.env,
        "HOME": str(home),
        "PATH": f"{BIN}:{os.environ['PATH']}",
        "DBT_PROFILES_DIR": str(trips.dir),
        "GIT_AUTHOR_NAME": "Dana",
        "GIT_AUTHOR_EMAIL": "dana@example.com",
        "GIT_COMMITTER_NAME": "Dana",
        "GIT_COMMITTER_EMAIL": "dana@example.com",
        "GIT_CONFIG_NOSYSTEM": "1",
    }
    git = functools.partial(shell, env=env)
    origin = tmp_path / "origin.git"
    assert git(tmp_path, f"git init -q --bare -b main {origin}").returncode == 0
    (trips.dir / ".dbt-backfill").mkdir()
    (trips.dir / ".dbt-backfill" / "allowed_signers").write_text(f"dana@example.com {dana_public}\n")
    with (trips.dir / "dbt_project.yml").open("a") as project_file:
        project_file.write("\nvars:\n  dbt_backfill_approval: {signers: [dana@example.com], required: 1}\n")
    (trips.dir / ".gitignore").write_text(GIT_IGNORED)
    for line in ("git init -q -b main", "git add -A", "git commit -q -m project", f"git remote add origin {origin}",
                 "git push -q origin main"):  # fmt: skip
        done = git(trips.dir, line)
        assert done.returncode == 0, (line, done.stderr)
    before = snapshot(trips)

    # a forged branch: a packet approved by a typed name, carrying the signature of the real one (made below)
    run_block(planner, trips.dir, env)
    run_block(approver, trips.dir, env)
    forged = [
        "git switch -q -c backfill/forged main",
        "dbt-backfill plan fct_trips --partitions 2026-03-01..2026-03-02 --out backfills/forged.yml",
        "dbt-backfill approve backfills/forged.yml --by dana@example.com",
        "git checkout backfill/march-fares -- backfills/march-fares.yml.approvals",
        "git mv backfills/march-fares.yml.approvals backfills/forged.yml.approvals",
        "git add -A backfills",
        "git commit -q -m forged",
        "git push -q origin backfill/forged",
    ]
    for line in forged:
        done = git(trips.dir, line)
        assert done.returncode == 0, (line, done.stdout + done.stderr)

    # the job's clone, beside the project (its packages.yml installs the package from ../), with the job's profile
    clone = trips.dir.parent / "ci"
    assert git(trips.dir.parent, f"git clone -q {origin} ci").returncode == 0
    profile = yaml.safe_load((trips.dir / "profiles.yml").read_text())
    profile["dbt_backfill_integration_tests"]["outputs"]["duckdb"]["path"] = str(trips.dir / "trips.duckdb")
    (tmp_path / "profiles").mkdir()
    (tmp_path / "profiles" / "profiles.yml").write_text(yaml.safe_dump(profile))
    job_env = {**env, "DBT_PROFILES_DIR": str(tmp_path / "profiles"), "HOME": str(tmp_path)}

    def merged(branch):
        for line in ("git pull -q origin main", f"git merge -q --no-ff -m merge origin/{branch}"):
            done = git(clone, line)
            assert done.returncode == 0, (line, done.stdout + done.stderr)

    assert git(clone, "git fetch -q origin").returncode == 0
    merged("backfill/forged")
    refused_job = run_block(job, clone, job_env, last_status=123)
    assert "refused: the signed approval " in refused_job.stderr, refused_job.stderr
    # signed over the other packet (and, unless in the same second, before this one was planned): either is said
    assert (
        "does not hold: it was not made over this packet" in refused_job.stderr
        or "before the packet was planned" in refused_job.stderr
    ), refused_job.stderr
    assert snapshot(trips) == before

    merged("backfill/march-fares")
    run_block(job, clone, job_env)
    assert snapshot(trips) != before
    verified = shell(clone, "dbt-backfill verify backfills/march-fares.yml", job_env)
    assert verified.returncode == 0, verified.stdout + verified.stderr


@pytest.mark.parametrize("trips", POSTGRES_ONLY, indirect=True)
def test_with_a_role_policy_only_members_logins_other_than_the_planner_lead_to_a_write(trips):
    """Issue 55, item 3, on PostgreSQL: the policy names a role; an approval counts when a member records it with
    their own login (pure dbt's approve_backfill, or `approve --target`), the audit trail naming the role that wrote
    it. The planner's own approval, a role outside the policy claiming another's name, and one person twice are not
    counted; two members' approvals lead to the write."""
    out = trips.dir / "backfills" / "roles.yml"
    owners = f"data_owner_{secrets.token_hex(4)}"
    with (trips.dir / "dbt_project.yml").open("a") as project_file:
        project_file.write(f"\nvars:\n  dbt_backfill_approval: {{roles: [{owners}], required: 2}}\n")
    planned = trips.backfill("plan", "fct_trips", "--partitions", DAYS, "--out", str(out))
    assert planned.returncode == 0, planned.output
    assert (
        f"Who may approve: 2 approval(s) by distinct people, given with their own login by members of the role(s) "
        f"{owners} (`dbt-backfill approve PACKET --target …`, or dbt_backfill.approve_backfill); not the role that "
        "recorded the plan; a typed name is not accepted."
    ) in out.with_suffix(".md").read_text()
    packet = yaml.safe_load(out.read_text())
    trips.query(f"create role {owners} nologin")
    dana = as_role(trips, "dana", [*APPROVER, f"grant {owners} to {{role}}"])
    lee = as_role(trips, "lee", [*APPROVER, f"grant {owners} to {{role}}"])
    mallory = as_role(trips, "mallory", APPROVER)
    before = snapshot(trips)

    # the planner approves its own plan, with the target (its login): recorded, not counted
    approved = trips.backfill("approve", str(out), "--by", "Dana Owner")
    assert approved.returncode == 0, approved.output
    planner = trips.query("select current_user")[0][0]
    refused(
        trips.backfill("apply", str(out)),
        f"this packet has 0: the approval by Dana Owner is a typed name, which proves no one; not counted: role "
        f"{planner} recorded the plan, and the policy does not let the planner approve.",
    )

    def given_as(target, by):
        # a packet the CLI planned names its target (pure dbt's own packet is found by its run)
        args = {"run_id": packet["run_id"], "approved_sha256": yaml.safe_load(out.read_text())["approval"]["packet_sha256"],
                "approved_by": by, "target_relation": packet["target_relation"]}  # fmt: skip
        return trips.dbt(
            "run-operation", "dbt_backfill.approve_backfill", "--target", target, "--args", json.dumps(args)
        )

    done = given_as("dana", "Dana Owner")
    assert done.returncode == 0, done.output
    assert f"recorded as given by {dana}, by the database's own attribution" in done.output
    again = given_as("dana", "Dana Owner")
    assert again.returncode == 1 and f"approval by {dana} is recorded already: one approval counts once" in again.output
    claimed = given_as("mallory", "Lee Owner")  # a name typed for another: the role that wrote the row is what counts
    assert claimed.returncode == 0, claimed.output
    # a member approves, then revokes it with the CLI and their own login: it counts for nothing
    sam = as_role(trips, "sam", [*APPROVER, f"grant {owners} to {{role}}"])
    assert given_as("sam", "Sam Owner").returncode == 0
    withdrawn = trips.backfill("approve", str(out), "--revoke", "--target", "sam")
    assert withdrawn.returncode == 0, withdrawn.output
    assert f"The approval recorded by the role {sam} for run {packet['run_id']} is revoked." in withdrawn.stdout
    result = trips.backfill("apply", str(out))
    refused(result, f"this packet has 1 (role {dana}); not counted: ")
    for why in (
        f"role {mallory} is not a member of {owners}",
        f"role {planner} recorded the plan, and the policy does not let the planner approve",
        f"role {sam} revoked its approval",
    ):
        assert why in result.stderr, result.stderr
    assert snapshot(trips) == before

    # a second member, through the CLI with their own target: the packet is approved already, so a further approval
    further = trips.backfill("approve", str(out), "--target", "lee")
    assert further.returncode == 0, further.output
    assert f"recorded as given by the role {lee} (the database's own attribution)" in further.stdout
    applied = trips.backfill("apply", str(out))
    assert applied.returncode == 0, applied.output
    assert snapshot(trips) != before
    # `partitions` and `history` name the logins that gave it, as the database attributed them (Sam's withdrawn)
    logins = ", ".join(f"the login of role {role}" for role in (planner, dana, mallory, lee))
    assert f"(approved by Dana Owner; proven by {logins}) replaced it at " in trips.backfill(
        "partitions", "fct_trips", "--partitions", DAYS).stdout  # fmt: skip
    # Dana withdraws after the write: the write was still made on her approval, and the trail keeps saying so
    late = trips.dbt("run-operation", "dbt_backfill.approve_backfill", "--target", "dana", "--args", json.dumps(
        {"run_id": packet["run_id"], "approved_sha256": yaml.safe_load(out.read_text())["approval"]["packet_sha256"],
         "target_relation": packet["target_relation"], "revoke": True}))  # fmt: skip
    assert late.returncode == 0, late.output
    assert f"(approved by Dana Owner; proven by {logins}) replaced it at " in trips.backfill(
        "partitions", "fct_trips", "--partitions", DAYS).stdout  # fmt: skip
    events = json.loads(trips.backfill("history", "fct_trips", "--run", packet["run_id"], "--json").stdout)["events"]
    said = [(e["event"], e["recorded_by"], e["said"]) for e in events if e["event"].startswith("approval_")]
    assert (("approval_revoked", sam, f"withdrawn with the login of role {sam}") in said
            and ("approval_given", lee, f"given with the login of role {lee}") in said), said  # fmt: skip


def by_hand(packet, cascade_of: dict) -> dict:
    """What the CLI's apply passes apply_partitions (workflow/apply.py), with a cascade root claimed in the approval:
    what anyone with the applier's credentials can send by hand."""
    return {
        **packet.scope_args(),
        "watermark": dict(packet.watermark_config) if packet.watermark_config else None,
        "allow_watermark_move": False,
        "approval": {**packet.approval.to_dict(), "signatures": [], "cascade_of": cascade_of},
        "partitions": packet.partition_args(),
        "control": dict(packet.control) if packet.control else None,
        "packet_sha256": packet.sha256(),
        "source": dict(packet.source),
        "downstream": [dict(d) for d in packet.downstream],
    }


@pytest.mark.parametrize("trips", POSTGRES_ONLY, indirect=True)
def test_a_cascade_counts_its_roots_logins_only_where_its_plan_recorded_that_root(trips):
    """A cascade's child counts the logins that approved its root (issue 55), read from the root's audit table. Found
    by a helper: apply_partitions called by hand with the applier's credentials believed any claimed root, so run B,
    approved by nobody, was written on run A's approval, and a root "table" the caller named (a plain table whose
    recorded_by anyone writes) counted forged logins. Now only the root the child's plan recorded
    (`cascade_planned`, a plan row) counts: both refused, exit 1 on dbt's side, the rows unchanged; the CLI's
    cascade of A is applied on Dana's login."""
    from dbt_backfill.packet import Packet

    owners = f"data_owner_{secrets.token_hex(4)}"
    with (trips.dir / "dbt_project.yml").open("a") as project_file:
        project_file.write(f"\nvars:\n  dbt_backfill_approval: {{roles: [{owners}], required: 1}}\n")
    out_a, out_b = trips.dir / "backfills" / "a.yml", trips.dir / "backfills" / "b.yml"
    for out in (out_a, out_b):
        assert trips.backfill("plan", "fct_trips", "--partitions", DAYS, "--out", str(out)).returncode == 0
        assert trips.approve(out).returncode == 0  # a typed name only
    a, b = Packet.read(out_a), Packet.read(out_b)
    trips.query(f"create role {owners} nologin")
    dana = as_role(trips, "dana", [*APPROVER, f"grant {owners} to {{role}}"])
    given = trips.dbt("run-operation", "dbt_backfill.approve_backfill", "--target", "dana", "--args", json.dumps(
        {"run_id": a.run_id, "approved_sha256": a.sha256(), "target_relation": a.target.to_dict()}))  # fmt: skip
    assert given.returncode == 0, given.output
    before = snapshot(trips)

    mallory = as_role(trips, "mallory", [])
    trips.query(f"create schema forged_backfill authorization {mallory}")
    trips.query("create table forged_backfill.dbt_backfill_audit (run_id text, event text, packet_sha256 text, "
                "recorded_by text)")  # fmt: skip
    trips.query(f"insert into forged_backfill.dbt_backfill_audit values ('{b.run_id}', 'approval_given', "
                f"'{b.sha256()}', '{dana}')")  # fmt: skip
    applier = as_role(trips, "applier", APPLIER_PRIVILEGES)
    trips.query(f"grant usage on schema forged_backfill to {applier}")
    trips.query(f"grant select on forged_backfill.dbt_backfill_audit to {applier}")
    forged = {**b.target.to_dict(), "schema": "forged"}
    for claimed in ({"run_id": a.run_id, "packet_sha256": a.sha256()},
                    {"run_id": b.run_id, "packet_sha256": b.sha256(), "target_relation": forged}):  # fmt: skip
        result = trips.dbt("run-operation", "dbt_backfill.apply_partitions", "--target", "applier", "--args",
                           json.dumps(by_hand(b, claimed)))  # fmt: skip
        assert result.returncode == 1 and "<<dbt_backfill:refused>>" in result.output, result.output[-3000:]
        assert (f"fct_trips's approval policy requires 1 approval(s) by distinct people (members of {owners}); this "
                f"packet has 0" in result.output), result.output[-3000:]  # fmt: skip
        assert (f"not counted: the claimed cascade root (run {claimed['run_id']}) is not the one this run's plan "
                "recorded" in result.output), result.output[-3000:]  # fmt: skip
        assert snapshot(trips) == before

    cascaded = trips.backfill("apply", str(out_a), "--cascade")
    assert cascaded.returncode == 0, cascaded.output
    assert "Cascade: daily_fares applied" in cascaded.stdout


def with_signers(project, listed: str, signers: str) -> None:
    (project.dir / ".dbt-backfill").mkdir(exist_ok=True)
    (project.dir / ".dbt-backfill" / "allowed_signers").write_text(listed)
    with (project.dir / "dbt_project.yml").open("a") as project_file:
        project_file.write(f"\nvars:\n  dbt_backfill_approval: {{signers: [{signers}], required: 1}}\n")


def signed_by_hand(private_key, folder, name, text: bytes) -> None:
    """A signature made with ssh-keygen itself, over any text: what a key holder can always do."""
    said = folder / f"{name}.txt"
    said.write_bytes(text)
    made = subprocess.run(["ssh-keygen", "-Y", "sign", "-f", str(private_key), "-n", "dbt-backfill", str(said)],
                          capture_output=True, check=False)  # fmt: skip
    assert made.returncode == 0, made.stderr
    (folder / f"{name}.txt.sig").rename(folder / f"{name}.sig")


@pytest.mark.parametrize("trips", ENGINE_INDEPENDENT, indirect=True)
def test_a_policy_is_not_switched_off_by_vars_nor_met_by_a_backdated_key_or_a_name_that_signed_nothing(trips, tmp_path):
    """Attacks on the signed approval (each refused, exit 3, the table unchanged): `--vars` setting the policy to
    null at apply; a key retired with git's valid-before yesterday, signing by hand a packet planned today with a
    time before its plan; the approval block naming someone other than the principal whose key signed."""
    dana, dana_public = key(tmp_path, "dana")
    lee, lee_public = key(tmp_path, "lee")
    retired = (dt.datetime.now(dt.timezone.utc) - dt.timedelta(days=1)).strftime("%Y%m%d%H%M%SZ")
    with_signers(trips, f'dana@example.com {dana_public}\nlee@example.com valid-before="{retired}" {lee_public}\n',
                 "dana@example.com, lee@example.com")  # fmt: skip
    out = trips.dir / "backfills" / "attacked.yml"
    assert trips.backfill("plan", "fct_trips", "--partitions", DAYS, "--out", str(out)).returncode == 0
    assert trips.approve(out, by="mallory").returncode == 0
    before = snapshot(trips)

    result = trips.backfill("apply", str(out), "--vars", "{dbt_backfill_approval: null}")
    refused(
        result,
        "--vars sets dbt_backfill_approval: who may approve fct_trips is the project's to say (the var in "
        "dbt_project.yml, or meta.backfill.approval), never a command line's. The target is unchanged.",
    )
    assert snapshot(trips) == before

    packet = PacketFile.read(out).packet
    folder = out.with_name(out.name + ".approvals")
    folder.mkdir()
    backdated = (dt.datetime.now(dt.timezone.utc) - dt.timedelta(days=2)).isoformat(timespec="seconds")
    signed_by_hand(lee, folder, "lee@example.com-backdated", signed_text(packet, backdated))
    result = trips.backfill("apply", str(out))
    refused(result, f"does not hold: it is dated {backdated}, before the packet was planned ({packet.created_at}).")
    assert snapshot(trips) == before
    for made in folder.iterdir():
        made.unlink()

    assert sign(trips, out, dana).returncode == 0  # a further signature: the block still names mallory
    result = trips.backfill("apply", str(out))
    refused(
        result,
        "the approval names mallory, who signed nothing beside this packet (signed by dana@example.com): "
        "the approval block was edited.",
    )
    assert snapshot(trips) == before


@pytest.mark.parametrize("trips", ENGINE_INDEPENDENT, indirect=True)
def test_a_cascade_under_a_project_wide_policy_is_covered_by_its_roots_signatures(trips, tmp_path):
    """The root's approval covers its cascade (workflow/cascade.py): under the project's var policy, the root
    signed and applied, its downstream model is rebuilt on the root's verified signatures, not refused half-done."""
    dana, dana_public = key(tmp_path, "dana")
    with_signers(trips, f"dana@example.com {dana_public}\n", "dana@example.com")
    out = trips.dir / "backfills" / "cascaded.yml"
    assert trips.backfill("plan", "fct_trips", "--partitions", DAYS, "--out", str(out)).returncode == 0
    assert sign(trips, out, dana).returncode == 0
    result = trips.backfill("apply", str(out), "--cascade")
    assert result.returncode == 0, result.output
    assert "Cascade: daily_fares applied" in result.stdout


def test_a_key_listed_first_for_another_namespace_is_verified_by_its_next_line(tmp_path):
    """No database: a key listed twice in allowed_signers, first on a line limited to git's namespace (as a team that
    signs commits with it may list it), then for dbt-backfill's. Each line the file lists for the key is tried: the
    signature verifies by the second, counts once, and a key on no line for the namespace is refused."""
    import dataclasses

    from dbt_backfill.packet import Packet
    from dbt_backfill.workflow.approval import sign_approval, verified_approvals

    packet_path = tmp_path / "backfills" / "seed.yml"
    packet_path.parent.mkdir()
    shutil.copy(REPO / "docs" / "examples" / "fct_trips__seed.yml", packet_path)
    packet = dataclasses.replace(Packet.read(packet_path), expires_at=None)
    dana, dana_public = key(tmp_path, "dana")
    (tmp_path / ".dbt-backfill").mkdir()
    signers = tmp_path / ".dbt-backfill" / "allowed_signers"
    signers.write_text(f'dana@git namespaces="git" {dana_public}\ndana@example.com {dana_public}\n')
    now = dt.datetime.now(dt.timezone.utc).isoformat(timespec="seconds")
    signed = sign_approval(packet_path, packet, dana, tmp_path, now)
    assert signed.principal == "dana@example.com", signed
    [found] = verified_approvals(packet_path, packet, tmp_path)
    assert (found.principal, found.key) == ("dana@example.com", signed.key)
    signers.write_text(f'dana@git namespaces="git" {dana_public}\n')
    with pytest.raises(Exception, match="it was not made over this packet"):
        verified_approvals(packet_path, packet, tmp_path)
