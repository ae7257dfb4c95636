"""Helpers for the browser tests: the server process, a small API client, and the gestures a
player makes on the table (tapping a card where it shows, playing a turn)."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, TypeVar

from playwright.sync_api import TimeoutError as PlaywrightTimeout

from tests.waiting import wait_until

T = TypeVar("T")
ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = "/usr/bin/chromium"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Server:
    """``python -m taash serve`` on 127.0.0.1 with a SQLite file; restartable on its port."""

    def __init__(self, db: Path, log: Path | None = None, args: Sequence[str] = (),
                 module: str = "taash") -> None:
        self.db = db
        self.log = log
        self.args = list(args)  # more `taash serve` options
        self.module = module  # what `python -m` runs: taash, or a test's wrapper of it
        self.port = free_port()
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self, timeout: float = 30) -> Server:
        env = dict(os.environ, PYTHONUNBUFFERED="1")
        env.pop("TAASH_DATABASE_URL", None)
        out = open(self.log, "ab") if self.log else subprocess.DEVNULL  # noqa: SIM115
        self.proc = subprocess.Popen(
            [sys.executable, "-m", self.module, "serve", "--host", "127.0.0.1", "--port",
             str(self.port), "--db", f"sqlite+aiosqlite:///{self.db}", "--bot-delay", "0",
             *self.args],
            stdout=out, stderr=out, env=env, cwd=ROOT)
        def up() -> bool:
            if self.proc is not None and self.proc.poll() is not None:
                raise RuntimeError(f"taash serve exited with {self.proc.returncode}")
            try:
                with urllib.request.urlopen(self.base + "/api/health", timeout=1) as r:
                    return r.status == 200
            except OSError:
                return False

        try:
            wait_until(up, timeout=timeout, every=0.1, what="taash serve to answer")
        except AssertionError:
            self.kill()
            raise RuntimeError("taash serve did not answer in time") from None
        return self

    def kill(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(10)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.kill()


def call(base: str, method: str, path: str, body: Any = None, token: str | None = None) -> Any:
    """One API request; returns the JSON answer (raises HTTPError on an error status)."""
    data = None if body is None else json.dumps(body).encode()
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    req = urllib.request.Request(base + path, data=data, method=method, headers=headers)
    with urllib.request.urlopen(req, timeout=10) as r:
        return json.loads(r.read() or b"null")


def create_table(base: str, game: str, seats: list[dict[str, Any]], **extra: Any) -> Any:
    return call(base, "POST", "/api/tables", {"game": game, "seats": seats, "live": True,
                                              "bot_delay_ms": 0, **extra})


# -- on the page -----------------------------------------------------------------------------
VISIBLE_POINT = """(el) => {
  const r = el.getBoundingClientRect();
  for (const fy of [0.3, 0.55, 0.8]) for (const fx of [0.2, 0.1, 0.35, 0.5, 0.7, 0.9]) {
    const x = r.left + r.width * fx, y = r.top + r.height * fy;
    const hit = document.elementFromPoint(x, y);
    if (hit && (hit === el || el.contains(hit))) return [x, y];
  }
  return null;
}"""


def root(page: Any) -> Any:
    return page.locator("main.table")


def attr(page: Any, name: str) -> str | None:
    return root(page).get_attribute(name)


def version(page: Any) -> int:
    return int(attr(page, "data-version") or -1)


def is_touch(page: Any) -> bool:
    return bool(page.evaluate("() => matchMedia('(pointer: coarse)').matches"))


def tap_card(page: Any, code: str) -> None:
    """Press and release a hand card where it shows (the fan overlaps cards), by finger on a
    touch screen, else by mouse."""
    card = page.locator(f"[data-hand] [data-card='{code}']")
    # Cards glide to their places when the hand changes, and fly in when dealt or drawn: aim
    # once they have arrived.
    page.wait_for_function("""() => [...document.querySelectorAll('[data-hand] .card')]
        .every((c) => !c.getAnimations().some((a) => a.transitionProperty === 'left'
          || (!(a instanceof CSSAnimation) && !(a instanceof CSSTransition))))""")
    point = card.evaluate(VISIBLE_POINT)
    assert point, f"card {code} is nowhere visible"
    if is_touch(page):
        page.touchscreen.tap(point[0], point[1])
    else:
        page.mouse.click(point[0], point[1])


def home_ready(page: Any) -> None:
    """Until home has what its first screen loads (games, player, tables, lobby, friends) and
    stops being aria-busy: a tap before that can land where a panel just moved (a review link
    pressed under load once hit whatever took its place)."""
    page.wait_for_selector("main.home[data-ready]")
    assert page.locator("main.home").get_attribute("aria-busy") is None


def press(page: Any, selector: str, force: bool = False) -> None:
    """Tap (touch screen) or click a control; force: even one marked aria-disabled."""
    loc = page.locator(selector).first
    if is_touch(page):
        loc.tap(force=force)
    else:
        loc.click(force=force)


def wait_version_after(page: Any, before: int, timeout: float = 10_000) -> None:
    page.wait_for_function(
        "(v) => Number(document.querySelector('main.table').dataset.version) > v",
        arg=before, timeout=timeout)


SUMMARY_CONTINUE = "dialog[data-dialog='deal-summary'] [data-action='continue']"
SNAPSHOT = """(summary) => {
  const t = document.querySelector('main.table');
  return {
    summary: !!document.querySelector(summary),
    over: t && t.dataset.over, turn: t && t.dataset.yourTurn, version: t && t.dataset.version,
    dialogs: [...document.querySelectorAll('dialog[open]')].map((d) => d.dataset.dialog),
  };
}"""


def play_turn(page: Any, seen: Any = None) -> bool:
    """Take one turn the way a player would; False if there is nothing to do now.  With
    ``seen`` (a looks() entry), only on the table as the caller saw it: if it has moved on
    since, nothing is done and True says "look again" (the caller may have checked that table
    for a moment it waits for, which a move made on a newer one would let pass)."""
    # One look at the page, in one task: read piecemeal, a view arriving in between could end
    # a deal (opening its summary over the table) after the summary was looked for.
    now = page.evaluate(SNAPSHOT, SUMMARY_CONTINUE)
    if seen is not None and now != seen:
        return True
    if now["summary"]:
        page.deal_summaries = getattr(page, "deal_summaries", 0) + 1
        press(page, SUMMARY_CONTINUE)
        return True
    if now["over"] == "true" or now["turn"] != "true":
        return False
    before = int(now["version"] or -1)
    game = attr(page, "data-game")
    trump = page.locator("[data-action^='trump:'][aria-disabled='false']")
    playable = page.locator("[data-hand] [data-card][data-playable='true']")
    if trump.count():
        suggested = page.locator("[data-action^='trump:'].suggested[aria-disabled='false']")
        press(page, "[data-action^='trump:'].suggested[aria-disabled='false']" if suggested.count()
              else "[data-action^='trump:'][aria-disabled='false']")
    elif game == "goat":
        # Goat's molodka may be played out of turn: a bot's can change the table, or end the
        # deal, while this seat's cards are chosen; then the choice is let go and the caller
        # looks again
        try:
            goat_turn(page, playable)
        except (PlaywrightTimeout, AssertionError):
            if int(attr(page, "data-version") or -1) == before:
                raise
            for code in page.locator("[data-hand] .card.selected").evaluate_all(
                    "(cs) => cs.map((c) => c.dataset.card)"):
                tap_card(page, code)
            return True
    else:
        tap_card(page, playable.first.get_attribute("data-card"))
    # the move is taken, or the last deal's summary opened over it (the next deal's call can
    # be offered while the last trick is still held on the felt): then the summary first
    page.wait_for_function(
        "([v, s]) => Number(document.querySelector('main.table').dataset.version) > v"
        " || !!document.querySelector(s)", arg=[before, SUMMARY_CONTINUE], timeout=10_000)
    return True


def goat_turn(page: Any, playable: Any) -> None:
    """Choose the first k playable cards of a Goat hand and lead, beat or pass them."""
    k = int(attr(page, "data-k") or 0)
    codes = [playable.nth(i).get_attribute("data-card") for i in range(max(k, 1))]
    for code in codes:
        tap_card(page, code)
    page.wait_for_function(
        "(n) => document.querySelectorAll('[data-hand] .card.selected').length === n",
        arg=len(codes))
    for verb in ("lead", "beat", "pass"):
        button = page.locator(f"[data-action='{verb}'][aria-disabled='false']")
        if button.count():
            press(page, f"[data-action='{verb}'][aria-disabled='false']")
            return
    raise AssertionError(f"no Goat action enabled for {codes}")


def play_to_end(pages: list[Any], timeout: float = 90, on_turn: Any = None) -> None:
    """Play every page's turns until each shows the match over."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        # over is read from the same look the wait below starts from: read apart, a match
        # ending between the two left the wait for a change that could never come
        before = looks(pages)
        if all(b["over"] == "true" for b in before):
            return
        acted = False
        for p, seen in zip(pages, before, strict=True):
            if on_turn is not None and attr(p, "data-your-turn") == "true":
                on_turn(p)
            acted = play_turn(p, seen=None if on_turn is not None else seen) or acted
        if not acted:
            wait_for_change(pages, before, timeout=max(deadline - time.monotonic(), 0.1))
    raise AssertionError("the match did not end in time")


def through(page: Any, condition: Callable[[], T]) -> Callable[[], T]:
    """`condition`, asked after a round trip to the page: Playwright's sync API hands the
    page's events (requests, routed requests, console messages, WebSocket frames) to their
    handlers only while a call to it waits, so a condition on what those handlers collect is
    polled this way (wait_until(through(page, lambda: posted)))."""

    def ask() -> T:
        page.evaluate("0")
        return condition()

    return ask


def looks(pages: list[Any]) -> list[Any]:
    """How each page's table looks now: its version, whose turn, over, a summary open."""
    return [p.evaluate(SNAPSHOT, SUMMARY_CONTINUE) for p in pages]


def wait_for_change(pages: list[Any], before: list[Any], timeout: float = 10) -> None:
    """Wait until a page's table no longer looks as `before` (looks()) said: the others' move
    came, or it is this player's turn, or a summary opened (never a fixed time)."""
    try:
        wait_until(lambda: looks(pages) != before, timeout=timeout, what="the table to change")
    except AssertionError as e:  # say where it stood, and what the page said last
        texts = [p.evaluate("() => (document.querySelector('main.table .status') || {}).textContent"
                            " || ''") for p in pages]
        raise AssertionError(f"{e}: it stayed {before}; status {texts}") from None


# -- a fixed table served to the page (issue 27's layout checks) ------------------------------
def state_where(game: str, want: Any, seeds: int = 500, moves: int = 80) -> tuple[Any, int]:
    """A seeded match of `game`, played at random until want(match, seat to move) holds:
    (the match, the seat)."""
    import random

    from taash.games import new_match

    for seed in range(seeds):
        m = new_match(game, seed=seed)
        rng = random.Random(seed)
        for _ in range(moves):
            if m.is_over() or m.needs_deal():
                break
            if want(m, m.to_move):
                return m, m.to_move
            m.apply(m.to_move, rng.choice(m.legal_actions(m.to_move)))
    raise AssertionError(f"no {game} state found")


WRAP_SEND = """() => {
  if (WebSocket.prototype.taashWrapped) return;
  const send = WebSocket.prototype.send;
  WebSocket.prototype.send = function (data) {
    let msg = null;
    try { msg = JSON.parse(data); } catch { msg = null; }
    if (msg && msg.type === 'action' && window.__taashSent) window.__taashSent(msg);
    return send.call(this, data);
  };
  WebSocket.prototype.taashWrapped = true;
}"""


def actions_sent(page: Any) -> list[dict[str, Any]]:
    """Every action the page sends, in order, as its body (action, id, version): over the
    table's WebSocket (how the page acts) or as a POST to /actions (its fallback when the
    socket gives no answer; the same id sent both ways is listed once)."""
    sent: list[dict[str, Any]] = []

    def add(body: Any) -> None:
        if isinstance(body, dict) and not any(
                body.get("id") is not None and b.get("id") == body.get("id") for b in sent):
            sent.append({k: v for k, v in body.items() if k != "type"})

    def on_request(r: Any) -> None:
        if r.method == "POST" and r.url.split("?")[0].endswith("/actions"):
            add(json.loads(r.post_data or "{}"))

    page.on("request", on_request)
    # the socket's messages, seen in the page itself (a socket opened before this call, or
    # one a test stubs with route_web_socket, is seen too), now and after each navigation
    page.expose_function("__taashSent", add)
    page.add_init_script(f"({WRAP_SEND})()")
    page.evaluate(WRAP_SEND)
    return sent


def answer_actions(ws: Any, answer: Any) -> None:
    """A stubbed table socket (``page.route_web_socket``) answers each action message the
    page sends on it with ``answer(body)``: the message to send back (an ack or an error with
    the body's id), or None to send nothing."""
    def heard(message: Any) -> None:
        try:
            msg = json.loads(message)
        except (TypeError, ValueError):
            return
        if isinstance(msg, dict) and msg.get("type") == "action":
            reply = answer({k: v for k, v in msg.items() if k != "type"})
            if reply is not None:
                ws.send(json.dumps(reply))

    ws.on_message(heard)


def serve_fixed(page: Any, game: str, view: dict[str, Any], posted: list[Any],
                version: int = 7) -> None:
    """Answer the page's requests for table "f" from one fixed view of `game`; record the
    actions it sends, over its socket or posted (and refuse them)."""
    n = len(view.get("hand_counts") or [0] * 4)
    view = {**view, "version": version, "table": {
        "id": "f", "game": game, "version": version,
        "seats": [{"seat": i, "type": "human" if i == view.get("seat") else "bot",
                   "level": "easy", "name": None, "connected": True} for i in range(n)]}}

    def api(route: Any) -> None:
        req = route.request
        if req.method == "POST" and req.url.endswith("/actions"):
            posted.append(json.loads(req.post_data or "{}"))
            route.fulfill(status=409, content_type="application/json", body=json.dumps(
                {"error": {"code": "illegal", "rule": "GT-7", "message": "test refuses"}}))
        else:
            route.fulfill(content_type="application/json", body=json.dumps(view))

    def refuse(body: dict[str, Any]) -> dict[str, Any]:
        posted.append(body)
        return {"type": "error", "id": body.get("id"), "error": {
            "code": "illegal", "rule": "GT-7", "message": "test refuses"}}

    def connect(ws: Any) -> None:
        answer_actions(ws, refuse)
        ws.send(json.dumps({"type": "view", "version": version, "view": view}))

    page.route("**/api/tables/f/**", api)
    page.route_web_socket("**/api/tables/f/ws**", connect)


def seat_token(page: Any, table_id: str, seat: int) -> str:
    """The seat token the page keeps for a seat (an invite link opened is claimed: the server
    gives the seat a new token and the link's stops working)."""
    token = page.evaluate(
        "(k) => (JSON.parse(localStorage.getItem('taash.seats') || '{}')[k] || {}).token || ''",
        f"{table_id}/{seat}")
    assert token, f"the page keeps no token for seat {seat} of {table_id}"
    return str(token)


def choose_double_sar_deals(page: Any, deals: int = 2) -> None:
    """On home, a four-player Court Piece match against easy bots set up (not started):
    double sar, a session of ``deals`` deals.  Two by default: the first deal's hand may be
    dealt before the page opens (when a bot calls trump at once), so only the second is sure
    to be dealt in front of the player."""
    page.goto("/")
    press(page, "[data-game-choice='court-piece']")
    press(page, ".options-box summary")
    page.select_option("[data-option='session_end']", "deals")
    page.fill("[data-option='session_n']", str(deals))
    page.select_option("[data-option='sar']", "double")
    press(page, "[data-level='easy']")
