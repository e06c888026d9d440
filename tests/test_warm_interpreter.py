"""The suite's commands run forked from a warm interpreter (tests/warm_interpreter.py). A command there must see
what a new process would: its argv, working directory, environment, time zone, stdin, sys.path, exit status and
exit handlers."""

import json
import subprocess
import sys
import textwrap

from warm_interpreter import WarmInterpreter

PROBE = textwrap.dedent("""\
    import atexit, json, os, signal, sys, time
    atexit.register(lambda: print("atexit ran", file=sys.stderr))
    if sys.argv[1:] == ["kill"]:
        os.kill(os.getpid(), signal.SIGKILL)
    print(json.dumps({"argv": sys.argv, "cwd": os.getcwd(), "probe": os.environ.get("PROBE"),
                      "home": os.environ.get("HOME"), "tz": time.strftime("%z", time.localtime(1_800_000_000)),
                      "path0": sys.path[0], "stdin": sys.stdin.read(), "name": __name__,
                      "dbt_loaded": "dbt.cli.main" in sys.modules}))
    sys.exit(int(sys.argv[2]) if len(sys.argv) > 2 else 0)
""")


def test_a_warm_command_sees_what_a_new_process_would(tmp_path):
    script = tmp_path / "bin" / "probe"
    script.parent.mkdir()
    script.write_text(PROBE)
    workdir = tmp_path / "work"
    workdir.mkdir()
    env = {"PROBE": "its own", "TZ": "Asia/Kathmandu", "PATH": "/usr/bin:/bin"}
    warm = WarmInterpreter(tmp_path)
    try:
        code, out, err = warm.run(str(script), ["exit", "3"], workdir, env)
        cold = subprocess.run(
            [sys.executable, str(script), "exit", "3"],
            cwd=workdir,
            env=env,
            capture_output=True,
            text=True,
            stdin=subprocess.DEVNULL,
        )
        seen, seen_cold = json.loads(out), json.loads(cold.stdout)
        assert (code, err) == (cold.returncode, cold.stderr) == (3, "atexit ran\n")
        assert seen["dbt_loaded"] and not seen_cold["dbt_loaded"]  # the one difference, and the point of it
        del seen["dbt_loaded"], seen_cold["dbt_loaded"]
        assert seen == seen_cold
        assert seen["tz"] == "+0545" and seen["probe"] == "its own" and seen["home"] is None
        assert seen["path0"] == str(script.parent) and seen["name"] == "__main__" and seen["stdin"] == ""
        # a command killed by a signal reports it as subprocess does
        assert warm.run(str(script), ["kill"], workdir, env)[0] == -9
    finally:
        warm.close()
