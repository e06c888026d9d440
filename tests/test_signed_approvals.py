"""The approval is a person's act (issue 55, items 1, 2, 5): a model's policy (meta.backfill.approval, or the
project's var dbt_backfill_approval) names who may approve and how many distinct approvers it takes; each proves it
with an SSH key the project's .dbt-backfill/allowed_signers lists (`approve --sign KEY`, OpenSSH's signatures as
`git commit -S` makes them). Every refusal with its exit status, its words and the table's rows: a typed name, an
unlisted key, one person twice toward 2-of-2, a signature over another packet, a signed time edited, a key taken off
the list after it signed, pure dbt's apply (which cannot verify a key). A model without a policy keeps the typed
name and its plan says so."""

from __future__ import annotations

import functools
import json
import os
import re
import shutil
import subprocess

import pytest
import yaml
from backends import ENGINE_INDEPENDENT
from conftest import trips_on
from documented import REPO, read_page
from project import BIN
from test_tampering import refused, snapshot

trips = trips_on(ENGINE_INDEPENDENT)

DAYS = "2026-03-01..2026-03-02"
POLICY = "\nvars:\n  dbt_backfill_approval: {signers: [dana@example.com, lee@example.com], required: 2}\n"


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
        "fct_trips's approval policy requires 2 approval(s) signed by a key the project's "
        ".dbt-backfill/allowed_signers lists for one of dana@example.com, lee@example.com; this packet has 0: the "
        "approval by Dana Owner is a typed name, which proves no one." in applied.output
    )
    assert snapshot(trips) == before

    out = trips.dir / "backfills" / "signed.yml"
    planned = trips.backfill("plan", "fct_trips", "--partitions", DAYS, "--out", str(out))
    assert planned.returncode == 0, planned.output
    assert (
        "Who may approve: 2 approval(s) signed by the keys .dbt-backfill/allowed_signers lists for "
        "dana@example.com, lee@example.com (`dbt-backfill approve PACKET --sign KEY`); a typed name is not "
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
    other.write_bytes(
        b"dbt-backfill approval\nrun_id: another\npacket_sha256: 0\napproved_at: 2026-01-01T00:00:00+00:00\n"
    )
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

    # Lee signs: two people. Then the time Dana signed, edited: the signature no longer holds
    assert sign(trips, out, lee).returncode == 0
    [dana_said] = [p for p in approvals.glob("dana@example.com-*.txt")][:1]
    original = dana_said.read_text()
    dana_said.write_text(re.sub(r"^approved_at: .*$", "approved_at: 2026-01-01T00:00:00+00:00", original, flags=re.M))
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
    assert "does not hold: it was not made over this packet" in refused_job.stderr
    assert snapshot(trips) == before

    merged("backfill/march-fares")
    run_block(job, clone, job_env)
    assert snapshot(trips) != before
    verified = shell(clone, "dbt-backfill verify backfills/march-fares.yml", job_env)
    assert verified.returncode == 0, verified.stdout + verified.stderr
