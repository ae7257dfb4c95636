"""The server's log: plain lines, or one JSON object a line (``taash serve --log-format
json``) for a log collector, with the request's id, method, path (never its query, where a
token may be), status, time and client on each request's line (logger ``taash.access``)."""

from __future__ import annotations

import json
import logging
import sys
import time

FIELDS = ("request_id", "method", "path", "status", "ms", "client")
FORMATS = ("text", "json")


class JsonLines(logging.Formatter):
    """A record as one JSON object; an exception as its last line, never a traceback."""

    def format(self, record: logging.LogRecord) -> str:
        out: dict[str, object] = {
            "ts": time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(record.created))
            + f".{int(record.msecs):03d}Z",
            "level": record.levelname.lower(), "logger": record.name,
            "message": record.getMessage()}
        for name in FIELDS:
            if hasattr(record, name):
                out[name] = getattr(record, name)
        if record.exc_info and record.exc_info[1] is not None:
            e = record.exc_info[1]
            out["error"] = f"{type(e).__name__}: {e}".splitlines()[0][:300]
        return json.dumps(out, ensure_ascii=False)


def set_up(level: str, fmt: str) -> None:
    """Send every logger's records to stderr in ``fmt``; with ``json`` the access lines too."""
    handler = logging.StreamHandler(sys.stderr)
    if fmt == "json":
        handler.setFormatter(JsonLines())
    else:
        handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s"))
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(getattr(logging, level.upper(), logging.WARNING))
    access = logging.getLogger("taash.access")
    access.setLevel(logging.INFO if fmt == "json" else logging.NOTSET)
