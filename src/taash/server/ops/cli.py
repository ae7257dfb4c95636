"""`taash db upgrade | check | copy`, `taash backup`, `taash restore` and `taash moderator
grant | revoke | list`: the commands a host runs on a server's database (see
docs/hosting.md).  Errors are one line; exit 2 for a task that cannot be done as asked, 1 for a
check that finds a table that does not replay."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Annotated

import typer
from sqlalchemy.engine import URL

from taash.cli_common import fail
from taash.server.config import Settings
from taash.server.fairplay.service import Moderators
from taash.server.ops.db import (
    OpsError,
    Report,
    backup,
    check,
    copy,
    db_url,
    describe,
    head_revision,
    restore,
    revision,
    upgrade,
)
from taash.server.store.db import Store

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


moderator_app = typer.Typer(no_args_is_help=True,
                            help="Grant, revoke and list the moderator role (fair play's "
                            "review queue).")

WhoArgument = Annotated[str, typer.Argument(metavar="PLAYER",
                                            help="the player's id, or their name (any case)")]


async def _moderators(url: URL, who: str | None, change: str) -> str:
    """Grant or revoke the role of the one player ``who`` names, or list its holders."""
    rev = await revision(url)
    if rev != head_revision():
        raise OpsError(f"the database is at revision {rev or 'none'}, this taash at "
                       f"{head_revision()}: run `taash db upgrade` first")
    store = Store(url)
    try:
        mods = Moderators(store)
        if who is None:
            held = await mods.listed()
            return "\n".join(f"{pid} {name}" for pid, name, _ in held) or "no moderators"
        found = await mods.find(who)
        if not found:
            raise OpsError(f"no player has the id or name {who!r}")
        if len(found) > 1:
            raise OpsError(f"{len(found)} players are named {who!r}: give the id of one "
                           f"({', '.join(pid for pid, _ in found)})")
        pid, name = found[0]
        if change == "grant":
            done = await mods.grant(pid)
            return f"{name} ({pid}) is {'now' if done else 'already'} a moderator"
        done = await mods.revoke(pid)
        return f"{name} ({pid}) is {'no longer' if done else 'not'} a moderator"
    finally:
        await store.close()


def _run_moderators(db: str | None, who: str | None, change: str) -> None:
    url = _url(db)
    try:
        typer.echo(asyncio.run(_moderators(url, who, change)))
    except OpsError as e:
        fail(str(e))
    except OSError as e:
        fail(f"cannot reach {describe(url)}: {e}")


@moderator_app.command("grant")
def moderator_grant(who: WhoArgument, db: DbOption = None) -> None:
    """Make a player a moderator: they see fair play's review queue and decide its cases."""
    _run_moderators(db, who, "grant")


@moderator_app.command("revoke")
def moderator_revoke(who: WhoArgument, db: DbOption = None) -> None:
    """Take the moderator role from a player."""
    _run_moderators(db, who, "revoke")


@moderator_app.command("list")
def moderator_list(db: DbOption = None) -> None:
    """The moderators: id and name, one a line."""
    _run_moderators(db, None, "list")


def register(app: typer.Typer) -> None:
    app.add_typer(db_app, name="db")
    app.add_typer(moderator_app, name="moderator")

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
