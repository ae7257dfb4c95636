"""What docs/hosting.md tells a host to install is checked here: the systemd units pass
`systemd-analyze verify`, the Caddyfiles `caddy validate`, the environment file names only
settings the server reads, and `/api/ready` tells a load balancer when an instance's store is
gone (while `/api/health` still answers)."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
import uuid
from pathlib import Path

import httpx
import pytest
from typer.testing import CliRunner

from taash.cli import app
from tests.conftest import unavailable
from tests.server.conftest import PG_ADMIN, _admin
from tests.server.helpers import ROOT, Server, free_port

DEPLOY = ROOT / "deploy"


def tool(name: str) -> str:
    found = shutil.which(name)
    if found is None:
        unavailable(f"{name} is not installed (scripts/services installs it)")
    return found


def test_the_systemd_units_pass_systemd_analyze_verify(tmp_path: Path) -> None:
    analyze = tool("systemd-analyze")
    taash = Path(sys.executable).with_name("taash")
    assert taash.exists()
    for unit in ("taash@.service", "taash-backup.service", "taash-backup.timer"):
        text = (DEPLOY / unit).read_text()
        # the guide installs into /opt/taash/.venv; here the test's own installation stands in
        (tmp_path / unit).write_text(text.replace("/opt/taash/.venv/bin/taash", str(taash)))
    for names in (["taash@8001.service"], ["taash-backup.service", "taash-backup.timer"]):
        r = subprocess.run([analyze, "verify", *[f"./{n}" for n in names]], cwd=tmp_path,
                           capture_output=True, text=True, timeout=60, check=False)
        assert r.returncode == 0 and not r.stderr.strip(), r.stderr
    unit = (DEPLOY / "taash@.service").read_text()
    for hardening in ("DynamicUser=yes", "ProtectSystem=strict", "NoNewPrivileges=yes",
                      "KillSignal=SIGTERM"):
        assert hardening in unit


@pytest.mark.slow
def test_the_caddyfiles_validate() -> None:
    caddy = tool("caddy")
    for name in ("Caddyfile", "Caddyfile.cluster"):
        r = subprocess.run([caddy, "validate", "--adapter", "caddyfile", "--config",
                            str(DEPLOY / name)], capture_output=True, text=True, timeout=60,
                           env={"TAASH_DOMAIN": "localhost", "HOME": "/tmp",
                                "XDG_DATA_HOME": "/tmp", "XDG_CONFIG_HOME": "/tmp"},
                           check=False)
        assert r.returncode == 0, r.stdout + r.stderr
        assert "Valid configuration" in r.stdout + r.stderr
    cluster = (DEPLOY / "Caddyfile.cluster").read_text()
    assert "health_uri /api/ready" in cluster
    assert len(re.findall(r"127\.0\.0\.1:800\d", cluster)) == 3


def test_the_environment_file_names_only_settings_the_server_reads() -> None:
    names = set(re.findall(r"^#?(TAASH_[A-Z_]+)=", (DEPLOY / "taash.env.example").read_text(),
                           re.M))
    assert {"TAASH_PUBLIC_URL", "TAASH_DATABASE_URL", "TAASH_REDIS_URL"} <= names
    source = "\n".join(p.read_text() for p in (ROOT / "src" / "taash").rglob("*.py"))
    for name in names:
        assert f'"{name}"' in source, f"{name} is in taash.env.example but nothing reads it"


@pytest.mark.slow
async def test_ready_says_when_the_store_is_gone_and_health_still_answers(tmp_path: Path) -> None:
    srv = Server(f"sqlite:///{tmp_path / 'r.db'}").start()  # SQLite, the in-process bus
    try:
        r = httpx.get(srv.base + "/api/ready", timeout=5)
        assert r.status_code == 200
        assert r.json() == {"ok": True, "store": "ok", "bus": "ok"}
    finally:
        srv.stop()
    name = f"taash_ready_{uuid.uuid4().hex[:8]}"
    try:
        await _admin(f'CREATE DATABASE "{name}"')
    except Exception as e:
        unavailable(f"PostgreSQL is not reachable at {PG_ADMIN}: {e}")
    base = PG_ADMIN.rsplit("/", 1)[0].replace("postgresql://", "postgresql+asyncpg://")
    srv = Server(f"{base}/{name}").start()
    try:
        assert httpx.get(srv.base + "/api/ready", timeout=5).status_code == 200
        await _admin(f'DROP DATABASE "{name}" WITH (FORCE)')
        r = httpx.get(srv.base + "/api/ready", timeout=10)
        assert r.status_code == 503
        body = r.json()
        assert body["ok"] is False and body["store"].startswith("unreachable")
        assert body["bus"] == "ok"
        assert httpx.get(srv.base + "/api/health", timeout=5).status_code == 200
    finally:
        srv.stop()
        await _admin(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def serve_check(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "taash", "serve", "--check-config", *args],
                          capture_output=True, text=True, timeout=60, check=False)


@pytest.mark.slow
def test_check_config_reaches_every_part_and_changes_nothing(tmp_path: Path) -> None:
    db = tmp_path / "c.db"
    r = serve_check("--db", f"sqlite:///{db}", "--redis", "redis://127.0.0.1:6379/0",
                    "--public-url", "https://cards.example.org")
    assert r.returncode == 0, r.stderr
    assert r.stdout.splitlines()[-1] == "configuration ok"
    assert "schema new" in r.stdout and "redis: redis://127.0.0.1:6379/0" in r.stdout
    assert not db.exists()  # a check makes no database
    port = free_port()  # a free port nothing listens on
    bad = [
        (("--db", f"postgresql://postgres@127.0.0.1:{port}/x"), "cannot reach the database"),
        (("--db", f"sqlite:///{db}", "--redis", f"redis://127.0.0.1:{port}/0"),
         "cannot reach Redis"),
        (("--db", f"sqlite:///{db}", "--public-url", "ftp://x/y"), "--public-url"),
        (("--db", f"sqlite:///{db}", "--forwarded-allow-ips", "bogus"), "not an address"),
        (("--db", f"sqlite:///{db}", "--smtp", "http://x"), ""),
        (("--db", "mysql://x/y"), "unsupported database"),
    ]
    for args, words in bad:  # the same command in this process: a process each took 3 s
        here = CliRunner().invoke(app, ["serve", "--check-config", *args])
        assert here.exit_code == 2, (args, here.stdout, here.stderr, here.exception)
        assert isinstance(here.exception, SystemExit), here.exception  # no traceback
        assert here.stderr.startswith("taash: ") and here.stderr.count("\n") == 1, here.stderr
        assert words in here.stderr and "Traceback" not in here.stderr
    assert not db.exists()


@pytest.mark.slow
def test_cookies_are_secure_behind_a_trusted_https_proxy_only(tmp_path: Path) -> None:
    https = {"X-Forwarded-Proto": "https", "X-Forwarded-For": "203.0.113.9"}
    # None: not given, so no proxy is trusted, not even one on this machine (issue 43: the
    # default was 127.0.0.1, so a local proxy's clients shared or forged their addresses)
    for trusted, secure in (("127.0.0.1", True), ("", False), (None, False)):
        args = ("--forwarded-allow-ips", trusted) if trusted is not None else ()
        db = f"sqlite:///{tmp_path / (trusted or str(trusted))}.db"
        said = CliRunner().invoke(app, ["serve", "--check-config", "--db", db, *args]).stdout
        assert f"trusted proxies: {trusted or 'none'}\n" in said, said
        srv = Server(db, *args).start()
        try:
            r = httpx.get(srv.base + "/api/me", headers=https, timeout=5)
            assert r.status_code == 200
            cookie = r.headers["set-cookie"].lower()
            assert ("; secure" in cookie) is secure, cookie
        finally:
            srv.stop()


@pytest.mark.slow
def test_json_logs_give_one_object_a_line_and_never_a_token(tmp_path: Path) -> None:
    log = tmp_path / "server.log"
    srv = Server(f"sqlite:///{tmp_path / 'j.db'}", "--log-format", "json", "--log-level", "info",
                 log=log).start()
    secret = "SEEKRIT-token-in-the-query-0123456789"
    try:
        with httpx.Client(base_url=srv.base, timeout=5) as http:
            ok = http.get("/api/health")
            refused = http.get(f"/api/tables/nosuch/view?token={secret}",
                               headers={"Authorization": f"Bearer {secret}"})
            assert refused.status_code in (401, 404)
            made = http.post("/api/tables", json={"game": "court-piece-2p",
                                                  "seats": [{"type": "human"}] * 2})
            assert made.status_code == 201
    finally:
        srv.stop()
    text = log.read_text()
    assert secret not in text
    lines = [json.loads(line) for line in text.splitlines() if line.strip()]  # each is JSON
    requests = {r["request_id"]: r for r in lines if r.get("logger") == "taash.access"}
    for answer, path in ((ok, "/api/health"), (refused, "/api/tables/nosuch/view"),
                         (made, "/api/tables")):
        line = requests[answer.headers["x-request-id"]]
        assert line["path"] == path and line["status"] == answer.status_code
        assert line["method"] in ("GET", "POST") and line["ms"] >= 0
        assert line["client"] == "127.0.0.1" and line["level"] == "info"
    assert any(r.get("logger", "").startswith("uvicorn") for r in lines)  # uvicorn's too
