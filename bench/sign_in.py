"""Sign-in round trips (not a test): how long signing a browser in takes, end to end over HTTP on
127.0.0.1, for each way in.

Starts ``taash serve`` (SQLite in a temporary folder, a local SMTP server for the mail) and, N
times each, measures:

- passkey: ``POST /api/sign-in/passkey/options``, the authenticator's answer (the tests'
  software authenticator, ES256), ``POST /api/sign-in/passkey``: the two round trips together;
- e-mail link: ``POST /api/sign-in/email/link`` with a link's secret (asking for the links,
  and the mail, are outside the timing);
- link code: ``POST /api/link`` with a code made on the signed-in browser.

    python bench/sign_in.py --n 100

Loopback only.  The client runs in this process and shares the machine's CPUs with the
server: the figures are for both together.
"""

from __future__ import annotations

import argparse
import re
import statistics
import sys
import tempfile
import time
from email import message_from_bytes, policy
from pathlib import Path
from typing import Any

from aiosmtpd.controller import Controller

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.server.accounts.test_players import Browser  # noqa: E402
from tests.server.authenticator import Authenticator  # noqa: E402
from tests.server.helpers import Server, free_port  # noqa: E402

LINK = re.compile(r"/email/(?:confirm|sign-in)#(\S+)")


class Inbox:
    def __init__(self) -> None:
        self.secrets: list[str] = []

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        msg = message_from_bytes(envelope.content, policy=policy.default)
        body = msg.get_body(("plain",))
        m = LINK.search(body.get_content() if body is not None else "")
        if m:
            self.secrets.append(m.group(1))
        return "250 OK"


def ms(xs: list[float]) -> str:
    xs = sorted(xs)
    p99 = xs[min(len(xs) - 1, int(len(xs) * 0.99))]
    return (f"p50 {statistics.median(xs) * 1000:6.1f} ms  p99 {p99 * 1000:6.1f} ms  "
            f"max {xs[-1] * 1000:6.1f} ms  (n={len(xs)})")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--n", type=int, default=100, help="sign-ins of each kind")
    args = ap.parse_args()
    box = Inbox()
    smtp_port = free_port()
    ctl = Controller(box, hostname="127.0.0.1", port=smtp_port)
    ctl.start()
    folder = Path(tempfile.mkdtemp(prefix="taash-sign-in-"))
    srv = Server(f"sqlite+aiosqlite:///{folder / 'b.db'}", "--smtp",
                 f"smtp://127.0.0.1:{smtp_port}?from=bench@test.example", "--bot-delay", "0",
                 log=folder / "server.log").start()
    try:
        owner = Browser(srv)
        owner.first_visit()
        auth = Authenticator(srv.base)
        options = owner.send("POST", "/api/me/passkeys/options").json()
        owner.send("POST", "/api/me/passkeys", {"credential": auth.create(options)})
        owner.send("POST", "/api/me/email", {"address": "bench@example.com"})
        deadline = time.monotonic() + 15
        while not box.secrets and time.monotonic() < deadline:
            time.sleep(0.02)
        confirm = owner.http.post("/api/email/confirm", json={"token": box.secrets.pop()},
                                  headers={"Origin": srv.base})
        assert confirm.status_code == 200, confirm.text
        b = Browser(srv)
        b.first_visit()
        passkey: list[float] = []
        email: list[float] = []
        code: list[float] = []
        for _ in range(args.n):
            t0 = time.perf_counter()
            opts = b.send("POST", "/api/sign-in/passkey/options").json()
            r = b.send("POST", "/api/sign-in/passkey", {"credential": auth.get(opts)})
            passkey.append(time.perf_counter() - t0)
            assert r.status_code == 200, r.text
        for _ in range(args.n):
            b.send("POST", "/api/sign-in/email", {"address": "bench@example.com"})
            deadline = time.monotonic() + 15
            while not box.secrets and time.monotonic() < deadline:
                time.sleep(0.005)
            secret = box.secrets.pop()
            t0 = time.perf_counter()
            r = b.send("POST", "/api/sign-in/email/link", {"token": secret})
            email.append(time.perf_counter() - t0)
            assert r.status_code == 200, r.text
        for _ in range(args.n):
            guest = Browser(srv)
            guest.first_visit()
            made = owner.send("POST", "/api/me/link").json()["code"]
            t0 = time.perf_counter()
            r = guest.send("POST", "/api/link", {"code": made})
            code.append(time.perf_counter() - t0)
            assert r.status_code == 200, r.text
            guest.close()
        print(f"passkey (options + answer): {ms(passkey)}")
        print(f"e-mail link opened:         {ms(email)}")
        print(f"link code typed:            {ms(code)}")
    finally:
        srv.stop()
        ctl.stop()


if __name__ == "__main__":
    main()
