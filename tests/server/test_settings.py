"""The server's settings are written once (taash.server.config.Settings): `taash serve`'s flags
are made from it, a flag beats its variable which beats the default, and a bad value is one
line naming where it came from."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import typer
from typer.testing import CliRunner

from taash.cli import app
from taash.server import serving
from taash.server.cli import RUN_ONLY
from taash.server.config import ConfigError, Settings, env_of, flag_of
from taash.server.settings_doc import update_doc


def serve_params() -> dict[str, Any]:
    group = typer.main.get_command(app)
    group.load("serve")  # type: ignore[attr-defined]  # the server's commands load when run (LAZY)
    serve = group.commands["serve"]  # type: ignore[attr-defined]
    with serve.make_context("serve", []) as ctx:
        return {p.name: p for p in serve.get_params(ctx) if p.name != "help"}


def test_every_flag_is_a_setting_with_its_default_and_variable() -> None:
    params = serve_params()
    fields = Settings.model_fields
    flagged = {name for name, f in fields.items() if flag_of(f)}
    assert flagged == set(params) - set(RUN_ONLY)
    assert not set(RUN_ONLY) & set(fields)  # how to run, not what the server knows
    for name in flagged:
        field, param = fields[name], params[name]
        assert param.opts == [flag_of(field)], name
        assert param.default in (None, False), name  # unset: the variable or the default
        assert param.envvar is None, name  # the model reads the variable, not the flag
        env = env_of(field)
        assert env and env.startswith("TAASH_"), name
        assert f"env {env}" in param.help, name
        default = field.get_default(call_default_factory=True)
        if default not in (None, "", [], {}, False):
            shown = f"{default:g}" if isinstance(default, float) else str(default)
            assert f"default {shown}" in param.help, (name, param.help)


@pytest.fixture
def checked(monkeypatch: pytest.MonkeyPatch) -> list[Settings]:
    """`taash serve --check-config` runs to the check, which records the settings."""
    seen: list[Settings] = []
    monkeypatch.setattr(serving, "check_config", seen.append)
    for name in ("TAASH_SWEEP_INTERVAL", "TAASH_RATE_LIMIT", "TAASH_REDIS_URL"):
        monkeypatch.delenv(name, raising=False)
    return seen


def serve(*args: str, env: dict[str, str] | None = None) -> Any:
    return CliRunner().invoke(app, ["serve", "--check-config", *args], env=env)


def test_a_flag_beats_its_variable_which_beats_the_default(checked: list[Settings]) -> None:
    assert serve().exit_code == 0
    assert serve(env={"TAASH_SWEEP_INTERVAL": "40"}).exit_code == 0
    assert serve("--sweep", "50", env={"TAASH_SWEEP_INTERVAL": "40"}).exit_code == 0
    assert serve("--redis", "redis://h/1", "--webhook-allow-private").exit_code == 0
    assert [s.sweep_s for s in checked[:3]] == [30.0, 40.0, 50.0]
    assert (checked[3].redis_url, checked[3].webhook_allow_private) == ("redis://h/1", True)
    assert (checked[0].redis_url, checked[0].webhook_allow_private) == (None, False)


@pytest.mark.parametrize(("args", "env", "line"), [
    ((), {"TAASH_RATE_LIMIT": "abc"},
     "taash: TAASH_RATE_LIMIT: input should be a valid number, unable to parse string as a "
     "number, not 'abc'"),
    (("--rate-limit", "abc"), {}, "taash: --rate-limit: input should be a valid number, "
     "unable to parse string as a number, not 'abc'"),
    (("--sweep", "0.01"), {}, "taash: --sweep: input should be greater than or equal to 0.05, "
     "not '0.01'"),
    ((), {"TAASH_SWEEP_INTERVAL": "0.01"}, "taash: TAASH_SWEEP_INTERVAL: input should be "
     "greater than or equal to 0.05, not '0.01'"),
    ((), {"TAASH_WEBHOOK_ALLOW_PRIVATE": "maybe"}, "taash: TAASH_WEBHOOK_ALLOW_PRIVATE: input "
     "should be a valid boolean, unable to interpret input, not 'maybe'"),
    ((), {"TAASH_ICE_SERVERS": "{"}, "taash: TAASH_ICE_SERVERS: not JSON; give a list like "
     '[{"urls": "stun:stun.example.org:3478"}]'),
    (("--metrics-token", "short-secret"), {}, "taash: --metrics-token: string should have at "
     "least 16 characters"),  # a secret is not repeated
])
def test_a_bad_value_is_one_line_naming_its_flag_or_variable(
        checked: list[Settings], args: tuple[str, ...], env: dict[str, str], line: str) -> None:
    result = serve(*args, env=env)
    assert result.exit_code == 2
    assert result.output.strip() == line
    assert not checked


def test_only_the_named_variables_are_read(monkeypatch: pytest.MonkeyPatch) -> None:
    """A setting without a variable (set by code) is not read from a stray one."""
    monkeypatch.setenv("TAASH_MAX_BODY", "1")
    monkeypatch.setenv("MAX_BODY", "1")
    monkeypatch.setenv("TAASH_KEEP_ALIVE", "2")
    s = Settings()
    assert (s.max_body, s.keep_alive_s) == (64 * 1024, 2.0)
    assert Settings(keep_alive_s=3).keep_alive_s == 3.0  # code beats the variable
    monkeypatch.setenv("TAASH_KEEP_ALIVE", "")  # empty: unset
    assert Settings().keep_alive_s == 5.0
    monkeypatch.setenv("TAASH_KEEP_ALIVE", "soon")
    with pytest.raises(ConfigError, match=r"^TAASH_KEEP_ALIVE: "):
        Settings.from_env()


def test_taash_starts_without_the_server_settings() -> None:
    """`taash --help` and the other commands do not load pydantic-settings (nor SQLAlchemy,
    nor uvicorn): only `taash serve` does."""
    code = ("import sys; from typer.main import get_command; from taash.cli import app; "
            "get_command(app); print(sorted(m for m in ('pydantic_settings', 'sqlalchemy', "
            "'uvicorn') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, timeout=120)
    assert out.stdout.strip() == "[]"


def test_the_hosting_doc_lists_the_settings_as_the_model_has_them() -> None:
    doc = Path(__file__).resolve().parents[2] / "docs" / "hosting.md"
    text = doc.read_text(encoding="utf-8")
    want = update_doc(text)
    if os.environ.get("TAASH_UPDATE_DOCS") == "1":
        doc.write_text(want, encoding="utf-8")
        text = want
    assert text == want, ("docs/hosting.md's settings table is stale: run "
                          "TAASH_UPDATE_DOCS=1 pytest tests/server/test_settings.py")
