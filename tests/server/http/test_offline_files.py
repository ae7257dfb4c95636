"""Offline play's files as `taash serve` serves them (issue 46): each from the gzip twin that
scripts/offline made, never compressed per request, and /assets/offline.json, the list that
"Make available offline" downloads."""

from __future__ import annotations

import gzip
import hashlib
import json
import subprocess
import sys
from pathlib import Path

import httpx
import pytest
from starlette.applications import Starlette

from taash.server.http.offline_files import (
    OFFLINE_PATH,
    GZipUnlessOffline,
    OfflineListing,
    Precompressed,
)
from tests.conftest import unavailable
from tests.server.helpers import Server

ROOT = Path(__file__).resolve().parents[3]
OFFLINE = ROOT / "src" / "taash" / "web" / "offline"
GZ = {"Accept-Encoding": "gzip, deflate, br"}


@pytest.fixture(scope="module")
def built() -> dict[str, object]:
    """scripts/offline's files in place (a second run downloads nothing) and its manifest."""
    out = subprocess.run([sys.executable, str(ROOT / "scripts" / "offline")],
                         capture_output=True, text=True, timeout=600)
    if out.returncode:
        unavailable(f"offline play's files are missing: {out.stderr.strip()}")
    manifest: dict[str, object] = json.loads((OFFLINE / "manifest.json").read_text())
    return manifest


def raw(url: str, headers: dict[str, str], method: str = "GET") -> httpx.Response:
    """The answer with its body as it came over the wire (not decoded)."""
    with httpx.stream(method, url, headers=headers, timeout=30) as r:
        r._content = b"".join(r.iter_raw())
    return r


@pytest.mark.slow
def test_the_interpreter_is_sent_as_its_twin_made_at_build(
        built: dict[str, object], server: Server) -> None:
    files = built["files"]
    assert isinstance(files, dict) and "pyodide/pyodide.asm.wasm" in files
    for name, entry in files.items():
        twin = (OFFLINE / f"{name}.gz").read_bytes()
        assert entry["gzip"] == {"bytes": len(twin), "sha256": hashlib.sha256(twin).hexdigest()}
        r = raw(f"{server.base}{OFFLINE_PATH}/{name}", GZ)
        assert r.status_code == 200, name
        assert r.headers["content-encoding"] == "gzip", name
        assert "accept-encoding" in r.headers["vary"].lower()
        # the very bytes of the twin (a per-request compression at another level differs),
        # which are the file's once decompressed
        assert r.content == twin, name
        assert hashlib.sha256(gzip.decompress(r.content)).hexdigest() == entry["sha256"], name
    wasm = f"{server.base}{OFFLINE_PATH}/pyodide/pyodide.asm.wasm"
    r = raw(wasm, GZ)
    assert r.headers["content-type"] == "application/wasm"
    assert int(r.headers["content-length"]) == files["pyodide/pyodide.asm.wasm"]["gzip"]["bytes"]
    # a client that does not take gzip (or refuses it) gets the file itself, uncompressed
    for refuses in ({"Accept-Encoding": "identity"}, {"Accept-Encoding": "gzip;q=0, br"}):
        r = raw(wasm, refuses)
        assert "content-encoding" not in r.headers
        assert r.content == (OFFLINE / "pyodide" / "pyodide.asm.wasm").read_bytes()
    head = raw(wasm, GZ, "HEAD")
    assert head.status_code == 200 and head.content == b""
    assert head.headers["content-encoding"] == "gzip"
    assert int(head.headers["content-length"]) == files["pyodide/pyodide.asm.wasm"]["gzip"]["bytes"]
    # asked again with its tag: not modified, nothing sent
    again = raw(wasm, {**GZ, "If-None-Match": raw(wasm, GZ).headers["etag"]})
    assert again.status_code == 304 and again.content == b""


async def test_a_file_without_a_twin_is_never_compressed_per_request(tmp_path: Path) -> None:
    big = bytes(range(256)) * 4096  # 1 MiB that gzip would shrink
    (tmp_path / "big.wasm").write_bytes(big)
    (tmp_path / "small.json").write_bytes(b'{"a": 1}' * 200)
    (tmp_path / "small.json.gz").write_bytes(gzip.compress((tmp_path / "small.json").read_bytes()))
    app = Starlette()
    app.mount(OFFLINE_PATH, Precompressed(directory=tmp_path))
    app.mount("/other", Precompressed(directory=tmp_path))
    transport = httpx.ASGITransport(app=GZipUnlessOffline(app, minimum_size=500))
    async with httpx.AsyncClient(transport=transport, base_url="http://t") as client:
        r = await client.get(f"{OFFLINE_PATH}/big.wasm", headers=GZ)
        assert r.status_code == 200 and "content-encoding" not in r.headers and r.content == big
        r = await client.get(f"{OFFLINE_PATH}/small.json", headers=GZ)
        assert r.headers["content-encoding"] == "gzip"
        assert r.headers["content-type"] == "application/json"
        assert r.content == (tmp_path / "small.json").read_bytes()  # decoded by the client
        # elsewhere the middleware still compresses as before
        r = await client.get("/other/big.wasm", headers=GZ)
        assert r.headers["content-encoding"] == "gzip" and r.content == big
        r = await client.get(f"{OFFLINE_PATH}/nothing.wasm", headers=GZ)
        assert r.status_code == 404


@pytest.mark.slow
def test_the_offline_list_names_every_file_with_its_size_and_checksum(
        built: dict[str, object], server: Server) -> None:
    listing = httpx.get(f"{server.base}/assets/offline.json", timeout=30).json()
    urls = {f["url"]: f for f in listing["files"]}
    files = built["files"]
    assert isinstance(files, dict)
    for name, entry in files.items():
        f = urls[f"{OFFLINE_PATH}/{name}"]
        assert (f["bytes"], f["sha256"]) == (entry["bytes"], entry["sha256"])
        assert f["download_bytes"] == entry["gzip"]["bytes"]
    # the page itself and its files, as the server sends them
    for url in ("/", "/assets/app.js", "/assets/offline_worker.js", "/assets/games.json",
                "/assets/i18n/ur.json", "/assets/style.css"):
        body = httpx.get(f"{server.base}{url}", timeout=30).content
        assert urls[url]["sha256"] == hashlib.sha256(body).hexdigest(), url
        assert urls[url]["bytes"] == len(body), url
    assert not [u for u in urls if u.endswith(".gz") or u.startswith("/assets/offline/manifest")]
    assert listing["bytes"] == sum(f["bytes"] for f in listing["files"])
    assert listing["download_bytes"] == sum(f["download_bytes"] for f in listing["files"])
    assert len(listing["version"]) == 16
    again = httpx.get(f"{server.base}/assets/offline.json", timeout=30).json()
    assert again["version"] == listing["version"]


def test_the_list_changes_version_with_any_file_and_says_when_there_is_none(
        tmp_path: Path) -> None:
    web = tmp_path / "web"
    (web / "offline" / "pyodide").mkdir(parents=True)
    (web / "index.html").write_text("<!doctype html>")
    (web / "app.js").write_text("export {};")
    (web / "app.js.tmp").write_text("half written")
    listing = OfflineListing(web, b"[]")
    assert listing() is None  # scripts/offline never ran here
    (web / "offline" / "manifest.json").write_text("not json")
    assert listing() is None  # a broken manifest: none, said in the log, no error per request
    wasm = b"\0asm" * 1000
    manifest = {"pyodide": {"version": "314.0.8"}, "files": {"pyodide/pyodide.asm.wasm": {
        "bytes": len(wasm), "sha256": hashlib.sha256(wasm).hexdigest(),
        "gzip": {"bytes": 40, "sha256": "0" * 64}}}}
    (web / "offline" / "manifest.json").write_text(json.dumps(manifest))
    first = json.loads(listing() or b"")
    assert [f["url"] for f in first["files"]] == [
        "/", "/assets/games.json", "/assets/app.js", "/assets/index.html",
        f"{OFFLINE_PATH}/pyodide/pyodide.asm.wasm"]
    assert first["files"][-1]["download_bytes"] == 40
    assert first["download_bytes"] == 40 + sum(f["bytes"] for f in first["files"][:-1])
    assert json.loads(listing() or b"")["version"] == first["version"]
    # a new build of the page: a new version, so the browser's cache of the old one is replaced
    (web / "app.js").write_text("export const x = 1;")
    assert json.loads(listing() or b"")["version"] != first["version"]
