"""``taash serve``: the game server, on SQLite with no configuration, or PostgreSQL and Redis
to scale out.  Errors are one line on stderr, never a traceback.

The command's setting flags are made from ``taash.server.config.Settings`` (each field that
names a flag), so their names, help, defaults and environment variables are written once, there.
They are made when ``taash serve`` itself is asked for: ``taash --help`` and the other commands
start without pydantic-settings, SQLAlchemy or uvicorn (``taash.server.serving`` does the
work)."""

from __future__ import annotations

import inspect
from typing import Annotated, Any

import typer
from typer.core import TyperCommand

#: where the setting flags' values wait between the command line and the command
_FLAGS = "taash.server.flags"

RUN_ONLY = ("host", "port", "check", "log_level")  # flags of the command, not settings

# The Any below: typer (0.29) carries its own copy of click, whose Context and Parameter have
# no public name (typer._click), and TyperCommand's methods take and give them


def _shown(value: object) -> str:
    """A default as the help shows it."""
    if isinstance(value, bool):
        return "on" if value else "off"
    if isinstance(value, float):
        return f"{value:g}"
    return str(value)


def setting_flags() -> list[Any]:
    """The setting flags, as typer makes options (``click.Option``): one for each field of
    ``Settings`` that names a flag, its help followed by its variable and default."""
    # pydantic-settings and SQLAlchemy: loaded only for `taash serve`, not for every command
    from taash.server.config import Settings, env_of, flag_of

    params = []
    for name, field in Settings.model_fields.items():
        flag = flag_of(field)
        if flag is None:
            continue
        default = field.get_default(call_default_factory=True)
        about = f"env {env_of(field)}"
        if default not in (None, "", [], {}):
            about += f", default {_shown(default)}"
        for bound in field.metadata:
            for attr, words in (("ge", "at least"), ("gt", "over"), ("min_length", "at least")):
                if getattr(bound, attr, None) is not None:
                    unit = " characters" if attr == "min_length" else ""
                    about += f", {words} {_shown(getattr(bound, attr))}{unit}"
        help_text = f"{field.description} ({about})"
        kind = field.annotation
        if kind is bool:  # a switch: given, it turns the setting on
            option = typer.Option(flag, help=help_text, show_default=False)
            params.append(inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, default=False,
                                            annotation=Annotated[bool, option]))
            continue
        # every value is taken as text and checked by the model, so a bad flag and a bad
        # variable get the same one-line message
        metavar = "<float>" if kind is float else "<int>" if kind is int else "<str>"
        option = typer.Option(flag, help=help_text, metavar=metavar, show_default=False)
        params.append(inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, default=None,
                                        annotation=Annotated[str | None, option]))

    def flags(**given: object) -> None:
        """The flags' holder."""

    flags.__signature__ = inspect.Signature(params)  # type: ignore[attr-defined]
    holder = typer.Typer(add_completion=False)
    holder.command()(flags)
    return list(typer.main.get_command(holder).params)


class ServeCommand(TyperCommand):
    """``taash serve``: its own flags (host, port ...) and, once asked for, the setting flags;
    the settings' values go to the command through the context, by field name."""

    _settings: list[Any] | None = None

    def get_params(self, ctx: Any) -> list[Any]:
        if self._settings is None:
            self._settings = setting_flags()
        own = super().get_params(ctx)
        at = next(i for i, p in enumerate(own) if p.name == "check")
        return [*own[:at], *self._settings, *own[at:]]

    def invoke(self, ctx: Any) -> Any:
        names = {p.name for p in self._settings or ()}
        ctx.meta[_FLAGS] = {k: ctx.params.pop(k) for k in list(ctx.params) if k in names}
        return super().invoke(ctx)


def register(app: typer.Typer) -> None:
    @app.command("serve", cls=ServeCommand)
    def serve_command(
        ctx: typer.Context,
        host: Annotated[str, typer.Option(help="address to listen on")] = "127.0.0.1",
        port: Annotated[int, typer.Option(min=0, max=65535, help="port (0: any free)")] = 8000,
        check: Annotated[bool, typer.Option(
            "--check-config", help="check the settings, reach the database and Redis, "
                                   "and exit without serving")] = False,
        log_level: Annotated[str, typer.Option(help="debug, info, warning or error")] = "warning",
    ) -> None:
        """Run the game server: HTTP API, live channel and web interface."""
        # the server's modules: loaded only now, not for every `taash` command
        from taash.server import serving

        given = {k: v for k, v in ctx.meta.get(_FLAGS, {}).items() if v not in (None, False)}
        serving.run(given, host, port, log_level, check=check)
