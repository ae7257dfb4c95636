"""`taash db upgrade | check | copy`, `taash backup` and `taash restore`: the commands a host
runs on a server's database (see docs/hosting.md).  Errors are one line; exit 2 for a task that
cannot be done as asked, 1 for a check that finds a table that does not replay."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Annotated

import typer
from sqlalchemy.engine import URL

from taash.cli_common import fail
from taash.server.config import Settings
from taash.server.ops.db import (
    OpsError,
    Report,
    backup,
    check,
    copy,
    db_url,
    describe,
    restore,
    upgrade,
)

db_app = typer.Typer(no_args_is_help=True,
                     help="Look after the server's database: upgrade, check, copy.")

DbOption = Annotated[str | None, typer.Option(
    "--db", envvar="TAASH_DATABASE_URL",
    help="database URL (default: the server's SQLite file in the user's data folder)")]


def _url(db: str | None) -> URL:
    try:
        return db_url(db) if db else Settings(db_url="").resolved_db_url()
    except OpsError as e:
        fail(str(e))


def _say(line: str) -> None:
    typer.echo(line, err=True)


def _report(report: Report, as_json: bool) -> None:
    summary = report.as_json()
    if as_json:
        typer.echo(json.dumps(summary))
    else:
        typer.echo(f"{summary['tables']} tables ({summary['over']} over), "
                   f"{summary['actions']} actions: "
                   + ("every table replays" if not report.failed
                      else f"{len(report.failed)} do not replay"))
        for t in report.failed:
            typer.echo(f"  table {t.id}: {t.error}")
    if report.failed:
        raise typer.Exit(1)


@db_app.command("upgrade")
def db_upgrade(db: DbOption = None) -> None:
    """Take the database to this taash's schema (the server also does it at start)."""
    url = _url(db)
    try:
        before, after = asyncio.run(upgrade(url))
    except OpsError as e:
        fail(str(e))
    except OSError as e:
        fail(f"cannot reach {describe(url)}: {e}")
    typer.echo(f"{describe(url)}: schema {before or 'none'} -> {after}"
               if before != after else f"{describe(url)}: schema {after}, up to date")


@db_app.command("check")
def db_check(db: DbOption = None,
             as_json: Annotated[bool, typer.Option("--json", help="the report as JSON")] = False
             ) -> None:
    """Replay every table through the rules core; exit 1 if any does not replay."""
    try:
        report = asyncio.run(check(_url(db), _say))
    except (OpsError, OSError) as e:
        fail(str(e))
    _report(report, as_json)


@db_app.command("copy")
def db_copy(
    source: Annotated[str, typer.Option("--from", help="the database to copy (only read)")],
    target: Annotated[str, typer.Option("--to", help="an empty database to copy into")],
    as_json: Annotated[bool, typer.Option("--json", help="the report as JSON")] = False,
) -> None:
    """Copy every table, seat, action and player to another database (SQLite to PostgreSQL,
    say), then check the row counts and replay every table on both sides."""
    try:
        report = asyncio.run(copy(db_url(source), db_url(target), _say))
    except (OpsError, OSError) as e:
        fail(str(e))
    _report(report, as_json)


def register(app: typer.Typer) -> None:
    app.add_typer(db_app, name="db")

    @app.command("backup")
    def backup_command(
        path: Annotated[Path, typer.Argument(help="the backup file to write")],
        db: DbOption = None,
        force: Annotated[bool, typer.Option("--force", help="replace PATH if it exists")] = False,
    ) -> None:
        """Back the database up while the server runs (SQLite's online backup, or pg_dump)."""
        url = _url(db)
        try:
            kind = backup(url, path, force=force)
        except OpsError as e:
            fail(str(e))
        except OSError as e:
            fail(f"cannot write {path}: {e.strerror or e}")
        typer.echo(f"backed up {describe(url)} to {path} ({kind})")

    @app.command("restore")
    def restore_command(
        path: Annotated[Path, typer.Argument(help="a file `taash backup` wrote")],
        db: DbOption = None,
        force: Annotated[bool, typer.Option(
            "--force", help="replace the tables already in the database")] = False,
    ) -> None:
        """Restore a backup into a database (stop the server first), then upgrade it."""
        url = _url(db)
        try:
            before, after = restore(path, url, force=force)
        except OpsError as e:
            fail(str(e))
        except OSError as e:
            fail(f"cannot restore {path}: {e.strerror or e}")
        typer.echo(f"restored {path} into {describe(url)} (schema {before} -> {after}); "
                   "`taash db check` replays every table")
