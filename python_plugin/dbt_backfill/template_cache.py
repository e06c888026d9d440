"""Jinja's compiled templates kept between commands, as Python keeps a module's bytecode in __pycache__.

dbt compiles every macro it calls from its source text once per process (dbt_common's `template_cache`), and a
dbt-backfill command is a process of its own: a plan compiled ~170 templates (~230 KB of Jinja), an apply ~130,
which was a third to a half of each operation's time (docs/DECISIONS.md, row 51). Here the code object Jinja
makes of a template's source is kept on disk, in the user's cache directory (`$XDG_CACHE_HOME/dbt-backfill`, else
`~/.cache/dbt-backfill`; `DBT_BACKFILL_CACHE_DIR` names another), and read back (`marshal`, as a .pyc is) by the
next command that compiles the same source in the same kind of environment, in any project.

What a cached object is keyed by: the template's source and everything Jinja's code generation reads from its
environment (its class, extensions, filter and test names, syntax settings) and the versions of Python, Jinja and
dbt_common. A file that cannot be read or is not a code object is ignored and compiled afresh; a template that does
not compile is never kept. The directory is the user's own (made 0700; one that is not owned by this user, or that
others can write, is not used), as Jinja's own bytecode cache requires; deleting it at any time costs only the next
command's compiles. Files unused for 30 days are removed.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import marshal
import os
import re
import sys
import tempfile
import time
from pathlib import Path
from types import CodeType
from typing import Any

_directory: Path | None = None
MACRO = re.compile(r"\s*\{%-?\s*(macro|materialization|test)\s")
UNUSED_FOR_S = 30 * 86400
TOUCHED_AFTER_S = 86400  # a file read is marked used at most once a day (one write, not one per command)


def default_directory() -> Path:
    if os.environ.get("DBT_BACKFILL_CACHE_DIR"):
        return Path(os.environ["DBT_BACKFILL_CACHE_DIR"]) / "compiled-templates"
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "dbt-backfill" / "compiled-templates"


def use(directory: Path | None = None) -> None:
    """Keep compiled templates under `directory` (default_directory()) from now on, in this process; where that
    directory cannot be made the user's own, compile as dbt does."""
    global _directory  # noqa: PLW0603 - one cache directory per process, set by the first command that asks
    directory = directory or default_directory()
    if _directory == directory:
        return  # a command invokes dbt several times: the directory is checked and pruned once per process
    _directory = _private(directory)
    if _directory is None:
        return
    import jinja2

    if getattr(jinja2.Environment.compile, "_keeps_compiled_templates", False):
        return
    compile_fresh = jinja2.Environment.compile

    def compile(
        self: Any,
        source: Any,
        name: str | None = None,
        filename: str | None = None,
        raw: bool = False,
        defer_init: bool = False,
    ) -> Any:
        # Only a macro's own source as dbt compiles it (`from_string` of a file's `{% macro %}` block): never a
        # profile's or a var's value, which dbt renders as a template too (a literal password would be a constant
        # of its code object), nor a model's SQL. Anything else, and dbt's own macro debugging (which writes the
        # generated source for tracebacks), compiles as Jinja does.
        if (
            _directory is None
            or raw
            or name is not None
            or filename is not None
            or defer_init
            or not isinstance(source, str)
            or not MACRO.match(source)
            or os.environ.get("DBT_MACRO_DEBUGGING")
        ):
            return compile_fresh(self, source, name, filename, raw, defer_init)  # type: ignore[call-overload]  # raw as given
        path = _directory / _key(self, source)
        with contextlib.suppress(OSError, ValueError, EOFError, TypeError):
            code = marshal.loads(path.read_bytes())
            if isinstance(code, CodeType):
                if time.time() - path.stat().st_mtime > TOUCHED_AFTER_S:
                    os.utime(path)
                return code
        code = compile_fresh(self, source)
        _keep(path, code)
        return code

    compile._keeps_compiled_templates = True  # type: ignore[attr-defined]
    jinja2.Environment.compile = compile  # type: ignore[method-assign]  # the one patch this module exists for


def _private(directory: Path) -> Path | None:
    """`directory`, made if absent, when it is this user's alone; None otherwise. Old files are removed."""
    try:
        directory.mkdir(parents=True, exist_ok=True, mode=0o700)
        status = directory.stat()
        if status.st_uid != os.getuid() or status.st_mode & 0o022:
            return None
        now = time.time()
        for entry in os.scandir(directory):
            with contextlib.suppress(OSError):
                if now - entry.stat().st_mtime > UNUSED_FOR_S:
                    os.unlink(entry.path)
    except OSError:
        return None
    return directory


def _key(environment: Any, source: str) -> str:
    settings = (
        _versions(),
        type(environment).__module__,
        type(environment).__qualname__,
        sorted(environment.extensions),
        sorted(environment.filters),
        sorted(environment.tests),
        environment.is_async,
        environment.optimized,
        environment.finalize is None,
        environment.block_start_string,
        environment.block_end_string,
        environment.variable_start_string,
        environment.variable_end_string,
        environment.comment_start_string,
        environment.comment_end_string,
        environment.line_statement_prefix,
        environment.line_comment_prefix,
        environment.trim_blocks,
        environment.lstrip_blocks,
        environment.newline_sequence,
        environment.keep_trailing_newline,
    )
    digest = hashlib.sha256(repr(settings).encode("utf-8"))
    digest.update(b"\0")
    digest.update(source.encode("utf-8", "surrogatepass"))
    return digest.hexdigest()


@functools.cache
def _versions() -> tuple[str, str, str]:
    """Python's (its bytecode), Jinja's (its code generation) and dbt_common's (its environments and parser)."""
    from importlib.metadata import PackageNotFoundError, version

    import jinja2

    try:
        dbt_common = version("dbt-common")
    except PackageNotFoundError:  # not installed as a distribution: key by the module's file instead
        import dbt_common as module

        dbt_common = str(getattr(module, "__file__", ""))
    return sys.version, jinja2.__version__, dbt_common


def _keep(path: Path, code: CodeType) -> None:
    """Written whole or not at all (a temporary file renamed), so a command that reads it never sees half."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=".writing-")
        with os.fdopen(handle, "wb") as file:
            file.write(marshal.dumps(code))
        os.replace(temporary, path)
    except OSError:
        with contextlib.suppress(OSError, UnboundLocalError):
            os.unlink(temporary)
