"""The installed `dbt-backfill` script's exit (dbt_backfill.script): it skips the interpreter's teardown, never the status, a
line of output, an atexit handler or a thread still at work. No database: the commands here stop before dbt."""

import os
import subprocess
import sys
import textwrap
from pathlib import Path

from click.testing import CliRunner
from dbt_backfill.cli import main

SCRIPT = Path(sys.executable).parent / "dbt-backfill"


def _script(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(SCRIPT), *args], cwd=cwd, capture_output=True, text=True, timeout=120)


def _python(program: str, **given) -> subprocess.CompletedProcess[str]:
    """`program` (indented as written in the test) in a new interpreter, its output captured."""
    return subprocess.run(
        [sys.executable, "-c", textwrap.dedent(program)], capture_output=True, text=True, timeout=120, **given
    )


def test_the_script_ends_with_each_command_s_status_and_every_line_it_printed(tmp_path):
    missing = str(tmp_path / "missing.yml")
    for args, status in (
        (["--version"], 0),
        (["approve", missing, "--by", "Dana Owner"], 1),
        (["plan"], 2),
    ):
        script = _script(*args, cwd=tmp_path)
        # click's runner mixes stderr into its output
        in_process = CliRunner().invoke(main, args, prog_name="dbt-backfill")

        assert (script.returncode, in_process.exit_code) == (status, status), (args, script.stderr)
        assert script.stdout + script.stderr == in_process.output, args
        assert script.stdout + script.stderr, args  # something was said, and all of it arrived


def test_atexit_handlers_run_and_a_thread_still_at_work_is_waited_for(tmp_path):
    """What a normal exit does that a user could see: a handler's last words, a non-daemon thread's last write."""
    ended = _python(
        f"""
        import atexit, sys, threading, time
        from pathlib import Path
        from dbt_backfill.script import run

        atexit.register(lambda: print("handler ran", flush=True))
        threading.Thread(target=lambda: (time.sleep(0.5), Path({str(tmp_path / "thread")!r}).write_text("done"))).start()
        sys.argv = ["dbt-backfill", "--version"]
        run()
        """
    )

    assert ended.returncode == 0, ended.stderr
    assert ended.stdout.endswith("handler ran\n") and "dbt-backfill, version" in ended.stdout
    assert (tmp_path / "thread").read_text() == "done"


def test_without_a_thread_at_work_the_handlers_still_run_and_the_status_stands(tmp_path):
    ended = _python(
        f"""
        import atexit, sys
        from dbt_backfill.script import run

        atexit.register(lambda: print("handler ran", flush=True))
        sys.argv = ["dbt-backfill", "approve", {str(tmp_path / "missing.yml")!r}, "--by", "Dana Owner"]
        run()
        """
    )

    assert ended.returncode == 1
    assert ended.stdout == "handler ran\n"
    assert "missing.yml" in ended.stderr


def test_a_closed_output_a_failed_flush_and_a_profiler_end_as_python_would_end_them(tmp_path):
    """Started with stdout closed (cron, `>&-`): no stream to flush, the status stands. A flush that fails at the
    end (a reader that went away): Python's own 120. Under a profiler: its report is written after the script."""
    closed = subprocess.run(
        ["bash", "-c", '"$0" --version >&-', str(SCRIPT)], capture_output=True, text=True, timeout=120
    )
    assert (closed.returncode, closed.stderr) == (0, "")

    environment = {k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"}
    failed = _python(
        """
        import atexit, os, sys
        from dbt_backfill.script import run

        def reader_gone():
            print("said late")  # buffered: stdout is a pipe and PYTHONUNBUFFERED is unset
            read_end, write_end = os.pipe()
            os.close(read_end)
            os.dup2(write_end, 1)

        atexit.register(reader_gone)
        sys.argv = ["dbt-backfill", "--version"]
        run()
        """,
        env=environment,
    )
    assert failed.returncode == 120, failed.stderr

    report = tmp_path / "script.prof"
    profiled = subprocess.run(
        [sys.executable, "-m", "cProfile", "-o", str(report), str(SCRIPT), "--version"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert profiled.returncode == 0 and "dbt-backfill, version" in profiled.stdout, profiled.stderr
    assert report.stat().st_size > 0
