"""`taash` itself: the server's commands are listed by their summaries and load when they run."""

from __future__ import annotations

import inspect
import subprocess
import sys

import typer.main
from typer.testing import CliRunner

from taash.cli import LAZY, ORDER, Commands, app


def test_a_lazy_command_is_listed_by_the_first_paragraph_of_its_own_help() -> None:
    group = typer.main.get_command(app)
    assert isinstance(group, Commands)
    assert group.lazy == set(LAZY)
    for name, lazy in LAZY.items():
        group.load(name)
        loaded = group.commands[name]
        assert inspect.cleandoc(loaded.help or "").split("\n\n")[0] == lazy.summary, name
    assert group.lazy == set()  # each module registered every name it stands for
    assert list(group.commands) == list(ORDER)  # and every command has its place in the list


def test_the_command_line_starts_without_the_server() -> None:
    heavy = ("fastapi", "sqlalchemy", "alembic", "uvicorn", "taash.server.cli",
             "taash.server.ops.cli")
    out = subprocess.run(
        [sys.executable, "-c", "import sys, taash.cli; "
         f"print(sorted(m for m in sys.modules if m.startswith({heavy!r})))"],
        capture_output=True, text=True, check=True, timeout=60)
    assert out.stdout.strip() == "[]"


def test_a_lazy_command_runs_as_itself() -> None:
    runner = CliRunner()
    listed = runner.invoke(app, ["--help"])
    assert listed.exit_code == 0
    assert "Look after the server's database" in listed.output
    db = runner.invoke(app, ["db", "--help"])
    assert db.exit_code == 0
    assert "upgrade" in db.output and "copy" in db.output
    typo = runner.invoke(app, ["serv"])
    assert typo.exit_code == 2
    assert "Did you mean 'serve'?" in typo.output
