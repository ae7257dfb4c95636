"""Offline play's files as `taash serve` serves them (issue 46).

- ``/assets/offline/...``: Pyodide's core and taash's zip, made by ``scripts/offline``, which
  also makes each file's gzip twin (``NAME.gz``).  A client that accepts gzip gets the twin
  with ``Content-Encoding: gzip``; any other client gets the file as it is.  These files are
  never compressed per request (``GZipUnlessOffline``): compressing the interpreter's 9.6 MB
  costs some 0.6 s of CPU, which any visitor could ask for again and again.
- ``/assets/offline.json``: what "Make available offline" downloads (offline_files.js): the
  offline files and the page's own files, each with its size, its size on the wire and its
  SHA-256, and a version that changes whenever any of them does; the page keeps the files in a
  cache named after that version, so a new build replaces the old files.
"""

from __future__ import annotations

import hashlib
import json
import logging
import mimetypes
import os
from pathlib import Path
from typing import TypedDict

from starlette.datastructures import Headers
from starlette.middleware.gzip import GZipMiddleware
from starlette.responses import FileResponse, Response
from starlette.staticfiles import NotModifiedResponse, StaticFiles
from starlette.types import Receive, Scope, Send

log = logging.getLogger("taash.server")

OFFLINE_PATH = "/assets/offline"
SKIPPED = (".gz", ".tmp")  # twins and half-written files: never a page's file of their own


def accepts_gzip(accept_encoding: str) -> bool:
    """Whether an ``Accept-Encoding`` value accepts gzip (``gzip;q=0`` refuses it).

    >>> [accepts_gzip(v) for v in ("gzip, deflate, br", "br", "gzip;q=0", "*", "GZIP; q=0.5")]
    [True, False, False, True, True]
    """
    for part in accept_encoding.split(","):
        coding, _, params = part.partition(";")
        if coding.strip().lower() not in ("gzip", "x-gzip", "*"):
            continue
        q = params.strip().lower()
        if q.startswith("q="):
            try:
                return float(q[2:]) > 0
            except ValueError:
                return False
        return True
    return False


class Precompressed(StaticFiles):
    """Static files answered from their gzip twin (``NAME.gz``, made at build) when the
    client accepts gzip, with ``Content-Encoding: gzip`` and the original's media type."""

    def file_response(self, full_path: os.PathLike[str] | str, stat_result: os.stat_result,
                      scope: Scope, status_code: int = 200) -> Response:
        request_headers = Headers(scope=scope)
        path = str(full_path)
        twin = path + ".gz"
        headers = {"Vary": "Accept-Encoding"}
        media_type = mimetypes.guess_type(path)[0] or "application/octet-stream"
        if not path.endswith(".gz") and accepts_gzip(request_headers.get("accept-encoding", "")) \
                and os.path.isfile(twin):
            path, stat_result = twin, os.stat(twin)
            headers["Content-Encoding"] = "gzip"
        response = FileResponse(path, status_code=status_code, stat_result=stat_result,
                                media_type=media_type, headers=headers)
        if self.is_not_modified(response.headers, request_headers):
            return NotModifiedResponse(response.headers)
        return response


class GZipUnlessOffline(GZipMiddleware):
    """Compresses answers per request, except offline play's files: those have their twins."""

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and str(scope.get("path", "")).startswith(OFFLINE_PATH + "/"):
            await self.app(scope, receive, send)
            return
        await super().__call__(scope, receive, send)


class OfflineFile(TypedDict):
    """One file of the list: its address, its size, its size on the wire, its SHA-256."""

    url: str
    bytes: int
    download_bytes: int
    sha256: str


def _entry(url: str, data: bytes) -> OfflineFile:
    return {"url": url, "bytes": len(data), "download_bytes": len(data),
            "sha256": hashlib.sha256(data).hexdigest()}


def _built(manifest: Path) -> tuple[list[OfflineFile], str | None]:
    """scripts/offline's files (each answered by its gzip twin, whose size is what comes over
    the wire) and the Pyodide version, from its manifest."""
    data: object = json.loads(manifest.read_text(encoding="utf-8"))
    if not isinstance(data, dict) or not isinstance(data.get("files"), dict):
        raise ValueError(f"{manifest} is not scripts/offline's manifest")
    out: list[OfflineFile] = []
    for name, e in data["files"].items():
        twin = e.get("gzip") if isinstance(e.get("gzip"), dict) else {}
        out.append({"url": f"{OFFLINE_PATH}/{name}", "bytes": int(e["bytes"]),
                    "download_bytes": int(twin.get("bytes", e["bytes"])),
                    "sha256": str(e["sha256"])})
    pyodide = data.get("pyodide")
    version = pyodide.get("version") if isinstance(pyodide, dict) else None
    return out, None if version is None else str(version)


class OfflineListing:
    """The body of ``/assets/offline.json`` for a web folder, or None when offline play's files
    were not built there (``scripts/offline``); made anew only when a file changed."""

    def __init__(self, web: Path, games_json: bytes) -> None:
        self.web = web
        self.games_json = games_json
        self.key: tuple[tuple[str, int, int], ...] | None = None
        self.body: bytes | None = None

    def page_files(self) -> list[Path]:
        return sorted(p for p in self.web.rglob("*")
                      if p.is_file() and not p.name.startswith(".") and not p.name.endswith(SKIPPED)
                      and p.relative_to(self.web).parts[0] not in ("offline", "__pycache__"))

    def __call__(self) -> bytes | None:
        manifest = self.web / "offline" / "manifest.json"
        watched = [manifest, *self.page_files()]
        try:
            key = tuple((str(p), (s := p.stat()).st_mtime_ns, s.st_size) for p in watched)
        except FileNotFoundError:
            return None
        if key != self.key:
            try:
                self.body = self.build(manifest)
            except (OSError, ValueError, KeyError, TypeError, AttributeError) as e:
                log.error("offline play's files cannot be listed: %r", e)
                self.body = None
            self.key = key
        return self.body

    def build(self, manifest: Path) -> bytes:
        built, pyodide = _built(manifest)
        files = [_entry("/", (self.web / "index.html").read_bytes()),
                 _entry("/assets/games.json", self.games_json)]
        files += [_entry(f"/assets/{p.relative_to(self.web).as_posix()}", p.read_bytes())
                  for p in self.page_files()]
        # the big ones last: a download cut short has the most files in hand
        files += sorted(built, key=lambda f: f["bytes"])
        listing = {"files": files, "bytes": sum(f["bytes"] for f in files),
                   "download_bytes": sum(f["download_bytes"] for f in files), "pyodide": pyodide}
        version = hashlib.sha256(json.dumps(listing, sort_keys=True).encode()).hexdigest()[:16]
        return json.dumps({"version": version, **listing}).encode()
