"""The Python package's shape (issue 40): the CLI stays thin and no function grows past what a reader takes in at
once. The import floors and the types are kept by `make check` (import-linter, mypy), run before the tests."""

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "python_plugin" / "dbt_backfill"
LONGEST = 50  # lines of a function's body, its docstring left out
REASON = "# longer than 50 lines because"


def _body_lines(function: ast.FunctionDef) -> int:
    body = function.body
    if body and isinstance(body[0], ast.Expr) and isinstance(getattr(body[0], "value", None), ast.Constant):
        body = body[1:]  # the docstring
    return (body[-1].end_lineno - body[0].lineno + 1) if body else 0


def test_no_function_is_longer_than_fifty_lines_unless_a_comment_above_it_says_why():
    too_long = []
    for path in sorted(PACKAGE.rglob("*.py")):
        lines = path.read_text().splitlines()
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and _body_lines(node) > LONGEST:
                first = min([node.lineno, *(d.lineno for d in node.decorator_list)])
                if not lines[first - 2].strip().startswith(REASON):
                    too_long.append(f"{path.relative_to(PACKAGE)}:{node.lineno} {node.name} ({_body_lines(node)})")
    assert not too_long, f"split these, or say why above them ({REASON} ...): {too_long}"


def test_the_cli_only_parses_calls_one_workflow_function_and_prints():
    cli = (PACKAGE / "cli.py").read_text()
    assert len(cli.splitlines()) <= 250
    # what it prints is rendered by the formatter; what it decides, by the workflow
    assert "def _table" not in cli and "Packet.read(" not in cli
    assert cli.count("PacketFile.read(") == len({"approve", "apply", "verify", "rollback", "status", "clean"})
