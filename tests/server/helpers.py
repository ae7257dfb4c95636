"""Helpers for the server tests: a real server process, a small API client, seat policies, and
the check that no message ever tells a seat a card it may not see."""

from __future__ import annotations

import json
import os
import random
import re
import selectors
import signal
import socket
import subprocess
import sys
from pathlib import Path
from typing import Any

import httpx

from taash.games import get_game
from taash.record import load
from tests.waiting import wait_until

ROOT = Path(__file__).resolve().parents[2]
CARD = re.compile(r"(?<![0-9A-Za-z])([2-9TJQKA][SHDC])(?![0-9A-Za-z])")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Server:
    """``python -m taash serve`` in a subprocess on 127.0.0.1."""

    def __init__(self, db: str | None, *args: str, env: dict[str, str] | None = None,
                 log: Path | None = None) -> None:
        self.db = db
        self.args = list(args)
        self.env = dict(os.environ, PYTHONUNBUFFERED="1", TAASH_PING_INTERVAL="0.5",
                        **(env or {}))
        self.env.pop("TAASH_DATABASE_URL", None)
        self.log = log
        # --port 0 and the port read from the banner (no window in which another worker can
        # take a port picked here); a public URL hides the port from the banner, so a server
        # given one gets a port picked here as before
        self.port = free_port() if "--public-url" in self.args else 0
        self.proc: subprocess.Popen[str] | None = None
        self.banner = ""

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws_base(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    def start(self, timeout: float = 60) -> Server:
        out = open(self.log, "a") if self.log else subprocess.DEVNULL  # noqa: SIM115
        self.proc = proc = subprocess.Popen(
            [sys.executable, "-m", "taash", "serve", "--port", str(self.port),
             *(["--db", self.db] if self.db else []), "--rate-limit", "0", *self.args],
            stdout=subprocess.PIPE, stderr=out, text=True, env=self.env, cwd=ROOT)
        assert proc.stdout is not None
        try:
            # the banner comes once the socket is bound (it names the port), then the health
            # check once it serves
            with selectors.DefaultSelector() as sel:
                sel.register(proc.stdout, selectors.EVENT_READ)

                def banner() -> bool:
                    if proc.poll() is not None:
                        raise RuntimeError(f"server exited with {proc.returncode}")
                    return bool(sel.select(0))

                wait_until(banner, timeout=timeout, what="the server's banner")
            self.banner = proc.stdout.readline()
            if not self.banner:
                proc.wait(10)
                raise RuntimeError(f"server exited with {proc.returncode}")
            if not self.port:
                found = re.search(r"http://127\.0\.0\.1:(\d+)", self.banner)
                assert found, self.banner
                self.port = int(found.group(1))  # kept: a restart binds the same port again

            def healthy() -> bool:
                if proc.poll() is not None:
                    raise RuntimeError(f"server exited with {proc.returncode}")
                try:
                    return httpx.get(self.base + "/api/health", timeout=1).status_code == 200
                except httpx.HTTPError:
                    return False

            wait_until(healthy, timeout=timeout, what="the server's health check")
        except BaseException:
            self.kill()
            raise
        return self

    def kill(self) -> None:
        """SIGKILL: no chance to flush or clean up anything."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(10)

    def stop(self) -> int:
        if self.proc is None:
            return 0
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT)
            try:
                self.proc.wait(15)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(5)
        if self.proc.stdout is not None:
            self.proc.stdout.close()
        return int(self.proc.returncode)


class Api:
    def __init__(self, base: str) -> None:
        self.base = base
        self.http = httpx.Client(base_url=base, timeout=20)

    def close(self) -> None:
        self.http.close()

    def create(self, game: str, options: Any = None, seats: list[dict[str, Any]] | None = None,
               **kw: Any) -> dict[str, Any]:
        body = {"game": game, "options": options, "seats": seats, "live": False, **kw}
        r = self.http.post("/api/tables", json=body)
        assert r.status_code == 201, r.text
        out: dict[str, Any] = r.json()
        return out

    @staticmethod
    def auth(token: str) -> dict[str, str]:
        return {"Authorization": f"Bearer {token}"}

    def view(self, table: str, token: str) -> dict[str, Any]:
        r = self.http.get(f"/api/tables/{table}/view", headers=self.auth(token))
        assert r.status_code == 200, r.text
        out: dict[str, Any] = r.json()
        return out

    def public(self, table: str) -> dict[str, Any]:
        r = self.http.get(f"/api/tables/{table}")
        assert r.status_code == 200, r.text
        out: dict[str, Any] = r.json()
        return out

    def act(self, table: str, token: str, action: str, cid: str | None = None,
            version: Any = None) -> httpx.Response:
        body: dict[str, Any] = {"action": action}
        if cid is not None:
            body["id"] = cid
        if version is not None:
            body["version"] = version
        return self.http.post(f"/api/tables/{table}/actions", json=body, headers=self.auth(token))

    def record(self, table: str) -> dict[str, Any]:
        r = self.http.get(f"/api/tables/{table}/record")
        assert r.status_code == 200, r.text
        out: dict[str, Any] = r.json()
        return out

    def wait_for(self, table: str, token: str, pred: Any, timeout: float = 20) -> dict[str, Any]:
        last: list[Any] = [None]

        def seen() -> Any:  # the view, or None
            v = last[0] = self.view(table, token)
            return v if pred(v) else None

        try:
            return wait_until(seen, timeout=timeout, what=f"a view of table {table} that passes")
        except AssertionError as e:
            raise AssertionError(f"{e} (at version {last[0]['version']})") from None


def ws_closes(ws: Any, allowed: tuple[str, ...], timeout: float = 5) -> None:
    """Until the server closes the (websockets sync) socket; each message before that is of
    an ``allowed`` type; still open after ``timeout`` seconds fails."""
    def closed() -> bool:
        try:
            msg = json.loads(ws.recv(timeout=0.2))
        except TimeoutError:
            return False
        except Exception:  # ConnectionClosed, however it closed
            return True
        assert msg["type"] in allowed, msg
        return False

    wait_until(closed, timeout=timeout, what="the server to close the socket")


def tokens_of(created: dict[str, Any]) -> dict[int, str]:
    return {s["seat"]: s["token"] for s in created["seats"] if "token" in s}


def choose(view: dict[str, Any], rng: random.Random, molodka_rate: float = 0.3) -> str | None:
    """A legal action for this seat now, or None: the seat to move always acts; a Goat seat
    that may play a molodka out of turn sometimes does."""
    legal: list[str] = view.get("legal_actions") or []
    if not legal:
        return None
    if view.get("to_move") == view.get("seat"):
        return rng.choice(legal)
    if rng.random() < molodka_rate:
        return rng.choice(legal)
    return None


def pick_actor(views: dict[int, dict[str, Any]], rng: random.Random) -> tuple[int, str] | None:
    """Among human seats' views: an out-of-turn molodka sometimes, else the seat to move."""
    mover = None
    for seat, v in sorted(views.items()):
        if v.get("to_move") != seat:
            a = choose(v, rng, 0.25)
            if a is not None:
                return seat, a
        elif v.get("legal_actions"):
            mover = seat
    if mover is None:
        return None
    a = choose(views[mover], rng)
    assert a is not None
    return mover, a


# -- the truth, from the finished match's record ----------------------------------------------
class Truth:
    """Every state of a finished match by version, replayed from its full record."""

    def __init__(self, record: dict[str, Any]) -> None:
        rec = load(record)
        cls = get_game(rec["game"])
        self.game = rec["game"]
        state = cls(rec["options"], rec[cls.first_seat_key], None)
        self.states: list[Any] = []
        self.decks: list[list[str]] = []  # current deal's deck by version
        self.trump_cards: list[str | None] = []
        self.faceup: list[set[str]] = []  # cards played face up in the current deal
        self.passes: list[dict[int, set[str]]] = []  # face-down passes per seat, this deal
        self.actions: list[tuple[int, str]] = [(-1, "")]
        deals = rec["deals"]
        state.deal(deals[0]["deck"], deals[0].get("trump_card"))
        di = 0
        faceup: set[str] = set()
        passes: dict[int, set[str]] = {}
        self._snap(state, deals[0], faceup, passes)
        for i, d in enumerate(deals):
            for a in d["actions"]:
                state.apply(a["seat"], a["action"])
                verb, _, arg = a["action"].partition(":")
                cards = set(CARD.findall(arg.upper()))
                if verb == "pass":
                    passes.setdefault(a["seat"], set()).update(cards)
                elif verb in ("play", "lead", "beat", "molodka"):
                    faceup |= cards
                self.actions.append((a["seat"], a["action"]))
                deal = d
                if state.needs_deal() and not state.is_over() and i + 1 < len(deals):
                    di = i + 1
                    state.deal(deals[di]["deck"], deals[di].get("trump_card"))
                    deal = deals[di]
                    faceup, passes = set(), {}
                self._snap(state, deal, faceup, passes)

    def _snap(self, state: Any, deal: dict[str, Any], faceup: set[str],
              passes: dict[int, set[str]]) -> None:
        self.states.append(state.clone())
        self.decks.append(list(deal["deck"]))
        self.trump_cards.append(deal.get("trump_card"))
        self.faceup.append(set(faceup))
        self.passes.append({s: set(c) for s, c in passes.items()})

    def secret(self, seat: int, version: int) -> set[str]:
        """Cards of the current deal that ``seat`` may not know at ``version``."""
        state = self.states[version]
        if state.is_over():
            return set()
        known = set(state.view(seat)["hand"]) | self.faceup[version]
        known |= self.passes[version].get(seat, set())
        if self.trump_cards[version]:
            known.add(str(self.trump_cards[version]))
        return set(self.decks[version]) - known

    def check_public(self, version: int, view: dict[str, Any]) -> None:
        """What anyone may see is the core's public view, and shows no card of a hand, the
        stock or the out-of-play cards, nor a face-down pass."""
        state = self.states[version]
        got = {k: v for k, v in view.items() if k not in ("version", "table", "id")}
        assert got == state.public_view(), f"version {version}: not the core's public view"
        if state.is_over():
            return
        secret = set(self.decks[version]) - self.faceup[version]
        secret.discard(str(self.trump_cards[version] or ""))
        leaked = cards_in({k: v for k, v in got.items() if k != "deals"}) & secret
        assert not leaked, f"version {version}: the public view shows {sorted(leaked)}"

    def check_view(self, seat: int, version: int, view: dict[str, Any]) -> None:
        """The view is the core's view of that seat at that version, and holds no secret."""
        core = self.states[version].view(seat)
        got = {k: v for k, v in view.items() if k not in ("version", "table")}
        assert got == core, f"seat {seat} version {version}: the view is not the core's view"
        assert view["version"] == version
        scan = {k: v for k, v in got.items() if k != "deals"}
        leaked = cards_in(scan) & self.secret(seat, version)
        assert not leaked, f"seat {seat} version {version}: view shows {sorted(leaked)}"

    def check_events(self, seat: int, version: int, events: list[dict[str, Any]]) -> None:
        """Events of action ``version`` show only what was known before it, plus the cards
        that action put face up."""
        before = self.secret(seat, version - 1)
        aseat, action = self.actions[version]
        verb, _, arg = action.partition(":")
        if verb != "pass" or aseat == seat:
            before -= set(CARD.findall(arg.upper()))
        leaked = cards_in(events) & before
        assert not leaked, f"seat {seat} version {version}: events show {sorted(leaked)}"


def cards_in(obj: Any) -> set[str]:
    return set(CARD.findall(json.dumps(obj)))
