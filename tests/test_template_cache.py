"""The compiled-template cache (python_plugin/dbt_backfill/template_cache.py): a macro compiled by one command is read
back by the next, renders exactly as a fresh compile does, and nothing it cannot trust is ever used."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap

# Each case runs in a process of its own, as each command does: the cache is installed once per process.
RENDER = textwrap.dedent("""
    import json, os, sys
    from pathlib import Path
    from dbt_backfill import template_cache
    import jinja2
    fresh = []
    compile_fresh = jinja2.Environment.compile
    def counting(self, source, *args, **kwargs):
        fresh.append(source)
        return compile_fresh(self, source, *args, **kwargs)
    jinja2.Environment.compile = counting  # under the cache: counts what the cache did not answer
    template_cache.use(Path(sys.argv[1]))
    from dbt_common.clients.jinja import get_template
    source = "{% macro m(x) %}{{ x | upper }}|{{ [1, 2] | length }}|{{ x ~ '!' }}{% endmacro %}"
    text = get_template(source, {}).module.dbt_macro__m("a|b")  # dbt's parser names a macro so
    native = get_template("{{ 1 + 2 }}", {}, native=True).render({})
    # a profile's literal value, as dbt renders it (natively, as a template): never a macro, never kept
    assert get_template(os.environ["LITERAL"], {}, native=True).render({}) == os.environ["LITERAL"]
    print(json.dumps({"text": str(text), "native": native, "compiled": len(fresh)}))
""")


LITERAL = "s3cr3t-literal-password"


def render(directory):
    completed = subprocess.run(
        [sys.executable, "-c", RENDER, str(directory)],
        capture_output=True,
        text=True,
        env={**os.environ, "LITERAL": LITERAL},
    )
    assert completed.returncode == 0, completed.stderr
    import json

    return json.loads(completed.stdout)


def test_a_template_compiled_once_is_read_back_by_the_next_process_and_renders_the_same(tmp_path):
    cache = tmp_path / "cache"
    first = render(cache)
    assert first == {"text": "A|B|2|a|b!", "native": "3", "compiled": 3}
    assert oct(cache.stat().st_mode & 0o777) == oct(0o700)
    kept = sorted(p.name for p in cache.iterdir())
    assert len(kept) == 1  # the macro; the two plain templates (one a literal value) are never kept
    assert not any(LITERAL.encode() in p.read_bytes() for p in cache.iterdir())

    second = render(cache)
    assert second == {**first, "compiled": 2}  # the macro read back, same output; the others compiled again
    assert sorted(p.name for p in cache.iterdir()) == kept


def test_an_unreadable_entry_is_compiled_afresh_and_replaced(tmp_path):
    cache = tmp_path / "cache"
    first = render(cache)
    for entry in cache.iterdir():
        entry.write_bytes(b"not a code object")

    again = render(cache)

    assert again == {**first, "compiled": 3}
    assert render(cache) == {**first, "compiled": 2}  # the macro's entry was written whole again


def test_a_directory_others_can_write_is_never_used(tmp_path):
    cache = tmp_path / "cache"
    cache.mkdir()
    os.chmod(cache, 0o777)
    planted = cache / "anything"
    planted.write_bytes(b"")

    assert render(cache)["compiled"] == 3
    assert render(cache)["compiled"] == 3  # still compiled every time: nothing read, nothing written
    assert [p.name for p in cache.iterdir()] == ["anything"]
