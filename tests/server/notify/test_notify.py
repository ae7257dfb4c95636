"""Turn notices by webhook and email (a local SMTP server), reminders, and the turn timer.  The
webhook receiver listens on 127.0.0.1, so the server here allows private webhook addresses."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterator
from datetime import datetime
from email import message_from_bytes
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any, ClassVar

import pytest
from aiosmtpd.controller import Controller

from tests.server.helpers import Api, Server, free_port, tokens_of
from tests.waiting import wait_until


class Inbox:
    def __init__(self) -> None:
        self.messages: list[Any] = []

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        msg = message_from_bytes(envelope.content)
        self.messages.append((list(envelope.rcpt_tos), msg["Subject"], msg.get_payload()))
        return "250 OK"


class Hooks(BaseHTTPRequestHandler):
    received: ClassVar[list[dict[str, Any]]] = []
    hosts: ClassVar[list[str]] = []

    def do_POST(self) -> None:
        body = self.rfile.read(int(self.headers.get("content-length", 0)))
        Hooks.hosts.append(str(self.headers.get("host")))
        Hooks.received.append(json.loads(body))
        self.send_response(204)
        self.end_headers()

    def log_message(self, format: str, *args: Any) -> None:
        return None


@pytest.fixture(scope="module")
def smtp() -> Iterator[tuple[Inbox, int]]:
    inbox = Inbox()
    port = free_port()
    ctl = Controller(inbox, hostname="127.0.0.1", port=port)
    ctl.start()
    yield inbox, port
    ctl.stop()


@pytest.fixture(scope="module")
def hooks() -> Iterator[str]:
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Hooks)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}/hook"
    httpd.shutdown()
    httpd.server_close()


@pytest.fixture(scope="module")
def notifying(tmp_path_factory: pytest.TempPathFactory,
              smtp: tuple[Inbox, int]) -> Iterator[Server]:
    folder: Path = tmp_path_factory.mktemp("notify")
    srv = Server(f"sqlite+aiosqlite:///{folder / 'n.db'}", "--smtp",
                 f"smtp://127.0.0.1:{smtp[1]}?from=taash@test.example", "--remind-after", "1.5",
                 "--sweep", "0.2", "--bot-delay", "0", "--public-url", "http://play.example",
                 "--webhook-allow-private", log=folder / "server.log").start()
    yield srv
    srv.stop()


def wait(pred: Any, timeout: float = 15) -> None:
    wait_until(pred, timeout=timeout, what=getattr(pred, "__name__", "a notice"))


@pytest.mark.slow
def test_your_turn_then_a_reminder(notifying: Server, smtp: tuple[Inbox, int],
                                   hooks: str) -> None:
    inbox = smtp[0]
    api = Api(notifying.base)
    assert api.http.get("/api/health").json() == {"ok": True, "email": True}
    t = api.create("court-piece-2p", {"target": 1}, [{"type": "human"}] * 2, first_seat=1)
    tid, tokens = t["id"], tokens_of(t)
    r = api.http.put(f"/api/tables/{tid}/notify", headers=api.auth(tokens[0]),
                     json={"webhook": hooks, "email": "zara@test.example"})
    assert r.status_code == 200
    assert api.act(tid, tokens[1], "trump:S").status_code == 200
    assert not [h for h in Hooks.received if h["table"] == tid]
    lead = api.view(tid, tokens[1])["legal_actions"][0]
    assert api.act(tid, tokens[1], lead).status_code == 200  # now seat 0 is to play
    wait(lambda: any(h["table"] == tid for h in Hooks.received))
    hook = next(h for h in Hooks.received if h["table"] == tid)
    assert hook == {"type": "your_turn", "table": tid, "game": "court-piece-2p", "seat": 0,
                    "version": 2, "url": f"http://play.example/t/{tid}?seat=0"}
    wait(lambda: any(tid in m[2] for m in inbox.messages))
    to, subject, body = next(m for m in inbox.messages if tid in m[2])
    assert to == ["zara@test.example"] and "your turn" in subject
    assert f"http://play.example/t/{tid}?seat=0" in body
    # nobody moves: one reminder after the configured wait, and only one
    wait(lambda: any(h["table"] == tid and h["type"] == "reminder" for h in Hooks.received))
    wait(lambda: sum(tid in m[2] for m in inbox.messages) == 2)
    assert "still your turn" in [m for m in inbox.messages if tid in m[2]][1][1]
    # Only one: another table's first reminder, due a whole --remind-after later, comes from a
    # sweep that also looked at this table again (and the sweeps before it did too).
    later = api.create("court-piece-2p", {"target": 1}, [{"type": "human"}] * 2, first_seat=0)
    assert api.http.put(f"/api/tables/{later['id']}/notify",
                        headers=api.auth(tokens_of(later)[0]),
                        json={"webhook": hooks}).status_code == 200
    wait(lambda: any(h["table"] == later["id"] and h["type"] == "reminder"
                     for h in Hooks.received))
    assert [h["type"] for h in Hooks.received if h["table"] == tid] == ["your_turn", "reminder"]
    api.close()


def test_connected_seat_is_not_notified(notifying: Server, hooks: str) -> None:
    api = Api(notifying.base)
    t = api.create("court-piece-2p", {"target": 1}, [{"type": "human"}] * 2, first_seat=0)
    tid, tokens = t["id"], tokens_of(t)
    api.http.put(f"/api/tables/{tid}/notify", headers=api.auth(tokens[1]),
                 json={"webhook": hooks})
    import httpx

    with httpx.stream("GET", f"{notifying.base}/api/tables/{tid}/stream",
                      params={"token": tokens[1]}, timeout=10) as r:
        lines = r.iter_lines()  # kept: a dropped line iterator closes the response
        next(lines)
        assert api.act(tid, tokens[0], "trump:H").status_code == 200
        lead = api.view(tid, tokens[0])["legal_actions"][0]
        assert api.act(tid, tokens[0], lead).status_code == 200  # seat 1 (connected) to move
        # Seat 0 goes away and asks to be told too; play on until it is to move again.  Its
        # notice is decided by the same room after seat 1's would have been, so once it has
        # come, seat 1's would have come before it.
        api.http.put(f"/api/tables/{tid}/notify", headers=api.auth(tokens[0]),
                     json={"webhook": hooks})
        v = api.view(tid, tokens[1])
        while v["to_move"] == 1:
            assert api.act(tid, tokens[1], v["legal_actions"][0]).status_code == 200
            v = api.view(tid, tokens[1])
        assert v["to_move"] == 0
        wait(lambda: any(h["table"] == tid and h["seat"] == 0 for h in Hooks.received))
    told = [(h["type"], h["seat"]) for h in Hooks.received if h["table"] == tid]
    assert told == [("your_turn", 0)]
    api.close()


@pytest.mark.slow
def test_turn_timer_lets_a_bot_play_for_an_absent_player(notifying: Server) -> None:
    api = Api(notifying.base)
    t = api.create("court-piece-2p", {"target": 1}, [{"type": "human"}] * 2, first_seat=0,
                   turn_timer_s=0.5)
    tid, tokens = t["id"], tokens_of(t)
    v = api.wait_for(tid, tokens[1], lambda v: v["version"] >= 2)
    assert v["history"][0]["seat"] == 0 and v["history"][0]["action"].startswith("trump:")
    api.close()


def test_table_info_says_when_the_turn_timer_plays(notifying: Server) -> None:
    api = Api(notifying.base)
    before = time.time()
    t = api.create("court-piece-2p", {"target": 1}, [{"type": "human"}] * 2, first_seat=0,
                   turn_timer_s=300)
    tid, tokens = t["id"], tokens_of(t)

    def ends() -> float | None:
        info = api.public(tid)["table"]
        e = info["turn_ends"]
        return None if e is None else datetime.fromisoformat(e.replace("Z", "+00:00")).timestamp()

    first = ends()
    assert first is not None and before + 299 <= first <= time.time() + 301
    # the clock past the timer's start (first - 300): a move now restarts it later
    wait_until(lambda: time.time() > first - 300 + 0.001, timeout=5, what="the clock to move")
    assert api.act(tid, tokens[0], "trump:H").status_code == 200
    second = ends()
    assert second is not None and second > first  # the clock restarts with every move
    # No timer: no end; a bot to move: no end (the timer is for people).
    plain = api.create("court-piece-2p", {"target": 1}, [{"type": "human"}] * 2, first_seat=0)
    assert api.public(plain["id"])["table"]["turn_ends"] is None
    bots = api.create("court-piece-2p", {"target": 1},
                      [{"type": "human"}, {"type": "bot", "level": "random"}], first_seat=1,
                      turn_timer_s=300, live=True, bot_delay_ms=60_000)
    info = api.public(bots["id"])["table"]
    assert info["to_move"] == 1 and info["turn_ends"] is None
    api.close()


async def test_webhook_to_a_private_address_is_not_sent_unless_allowed(
        hooks: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Checked again before sending (a URL stored before, a name that moved), in process;
    the POST goes to the address checked, under the URL's own host name."""
    import ipaddress

    from taash.server.notify import notifier as notify
    async def send(url: str, allow: bool, tag: str) -> None:
        n = notify.Notifier(None, webhook_allow_private=allow)
        await n._webhook(url, {"type": "your_turn", "table": tag})
        await n.close()

    await send(hooks, False, "refused")
    await send(hooks, True, "allowed")
    named = hooks.replace("127.0.0.1", "hooks.example")

    async def checked(url: str, allow: bool = False) -> list[Any]:
        assert url == named and not allow
        return [ipaddress.ip_address("127.0.0.1")]

    monkeypatch.setattr(notify, "webhook_addresses", checked)  # as if public
    await send(named, False, "pinned")
    tables = [h["table"] for h in Hooks.received]
    assert "allowed" in tables and "pinned" in tables and "refused" not in tables
    assert Hooks.hosts[tables.index("pinned")] == named.split("/")[2]


def test_a_notice_names_each_game_as_the_page_does() -> None:
    """Push notices take a game's name from the page's words (web/i18n), one list for both;
    a game the page has no words for (a game added to the core) is named by the core."""
    from taash.games import GAMES
    from taash.server.notify.push import LANGUAGES, game_words

    web = Path(__file__).resolve().parents[3] / "src" / "taash" / "web" / "i18n"
    for lang in LANGUAGES:
        words = json.loads((web / f"{lang}.json").read_text(encoding="utf-8"))
        for game in GAMES:
            assert game_words(lang, game) == words[f"game_{game}"]
    assert game_words("ru", "no-such-game") == "no-such-game"
    assert game_words("xx", "goat") == GAMES["goat"].name
