"""Voice at the table in Chromium with its fake microphone: two seats connect peer to peer
and hear each other (inbound audio bytes growing, a non-zero level), mute silences a side,
a reconnect of the table's socket renegotiates, a spectator gets no offer and is refused,
four seats connect every pair, and a page where voice is not turned on never opens a media
device."""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import socket
import struct
import subprocess
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import unavailable
from tests.waiting import wait_until
from tests.web.conftest import ARGS, DESKTOP
from tests.web.helpers import CHROMIUM, Server, create_table, free_port

pytestmark = [pytest.mark.browser, pytest.mark.slow]

# Test instrumentation only: every RTCPeerConnection and WebSocket the page makes, and every
# getUserMedia call, recorded where the test can read them.
WATCH = """(() => {
  const PC = window.RTCPeerConnection;
  window.__pcs = [];
  window.RTCPeerConnection = class extends PC {
    constructor(...a) { super(...a); window.__pcs.push(this); }
  };
  const WS = window.WebSocket;
  window.__ws = [];
  window.__voice = [];  // the voice messages the table's sockets brought
  window.WebSocket = class extends WS {
    constructor(...a) {
      super(...a);
      window.__ws.push(this);
      this.addEventListener('message', (e) => {
        try {
          const m = JSON.parse(e.data);
          if (m && m.type === 'voice') window.__voice.push(m);
        } catch (err) {}
      });
    }
  };
  window.__gum = 0;
  if (navigator.mediaDevices) {
    const gum = navigator.mediaDevices.getUserMedia.bind(navigator.mediaDevices);
    navigator.mediaDevices.getUserMedia = (c) => { window.__gum += 1; return gum(c); };
  }
})();"""

# The newest peer connection to each other seat: its state and inbound audio statistics.
STATS = """async () => {
  const out = [];
  for (const pc of window.__pcs) {
    if (pc.signalingState === 'closed') continue;
    let bytes = 0, level = 0, heard = 0;
    (await pc.getStats()).forEach((r) => {
      if (r.type === 'inbound-rtp' && r.kind === 'audio') {
        bytes = r.bytesReceived || 0; level = r.audioLevel || 0;
        heard = r.totalSamplesDuration || 0;
      }
    });
    out.push({ state: pc.connectionState, bytes, level, heard });
  }
  return out;
}"""


@pytest.fixture(scope="module")
def media_browser(browser: Any) -> Iterator[Any]:
    """Chromium with a fake microphone that needs no permission prompt (the session's
    Playwright, already running: a second one could not start in this thread)."""
    b = browser.browser_type.launch(executable_path=CHROMIUM, args=[
        *ARGS, "--use-fake-device-for-media-stream", "--use-fake-ui-for-media-stream",
        "--autoplay-policy=no-user-gesture-required"])
    yield b
    b.close()


@pytest.fixture
def open_seat(media_browser: Any) -> Iterator[Callable[..., Any]]:
    contexts: list[Any] = []

    def make(server: Server, path: str, init: str | None = None) -> Any:
        ctx = media_browser.new_context(base_url=server.base, **DESKTOP)
        ctx.set_default_timeout(20_000)
        if init is not None:
            ctx.add_init_script(init)
        ctx.add_init_script(WATCH)
        contexts.append(ctx)
        page = ctx.new_page()
        page.js_errors = []
        page.on("pageerror", lambda e: page.js_errors.append(str(e)))
        page.goto(path)
        page.wait_for_selector("main.table[data-version]")
        return page

    yield make
    for ctx in contexts:
        ctx.close()


def seats_of(server: Server, game: str, n: int) -> tuple[str, list[str]]:
    t = create_table(server.base, game, [{"type": "human"}] * n)
    return t["id"], [f"/t/{t['id']}?seat={s['seat']}&token={s['token']}" for s in t["seats"]]


def stats(page: Any) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = page.evaluate(STATS)
    return out


def wait_connected(page: Any, peers: int, timeout: float = 30) -> None:
    try:
        wait_until(lambda: sum(1 for s in stats(page) if s["state"] == "connected") >= peers,
                   timeout=timeout, every=0.1, what=f"{peers} peers connected")
    except AssertionError:
        panel = page.inner_text(".voice")
        raise AssertionError(f"not {peers} peers connected: {stats(page)} {panel!r}") from None
    # and the panel says so (n/m connected; the list itself may have folded away)
    page.wait_for_function("""(n) => {
      const b = document.querySelector('[data-voice-toggle]');
      return b && Number(b.textContent.split('/')[0]) >= n; }""", arg=peers)


def received(page: Any) -> tuple[int, float]:
    """Inbound audio bytes of the connected peers, and their highest audio level now."""
    now = [s for s in stats(page) if s["state"] == "connected"]
    return sum(s["bytes"] for s in now), max((s["level"] for s in now), default=0.0)


def hears(page: Any, level: float = 0.01, gain: int = 1000, timeout: float = 15) -> None:
    """The page hears the others: more than `gain` inbound audio bytes arrive, and the audio
    level goes over `level` (the fake microphone's beep), waited for (no fixed time)."""
    first = received(page)[0]
    top = 0.0

    def heard() -> bool:
        nonlocal top
        got, now = received(page)
        top = max(top, now)
        return got - first > gain and top > level

    try:
        wait_until(heard, timeout=timeout, every=0.1, what="audio heard")
    except AssertionError:
        raise AssertionError(f"not heard: {received(page)[0] - first} bytes, level {top}, "
                             f"{stats(page)}") from None


def silent(page: Any, quiet: float = 2.5, timeout: float = 20) -> None:
    """The page hears silence from a muted side: its audio level stays under 0.005 through
    `quiet` seconds of audio received (the media's own clock, totalSamplesDuration: the fake
    microphone beeps about once a second, so a quiet stretch that long is the mute)."""
    since: float | None = None
    levels: list[float] = []

    def quiet_enough() -> bool:
        nonlocal since
        now = [s for s in stats(page) if s["state"] == "connected"]
        heard = sum(s["heard"] for s in now)
        level = max((s["level"] for s in now), default=0.0)
        levels.append(level)
        if level >= 0.005 or since is None:
            since = heard
        return heard - since >= quiet

    try:
        wait_until(quiet_enough, timeout=timeout, every=0.1, what="a quiet stretch")
    except AssertionError:
        raise AssertionError(f"no {quiet} s of silence: levels {levels[-40:]}") from None


def test_two_seats_talk_mute_and_survive_a_reconnect(server: Server, open_seat: Any) -> None:
    tid, links = seats_of(server, "court-piece-2p", 2)
    a, b = open_seat(server, links[0]), open_seat(server, links[1])
    a.click("[data-voice-mic]")
    a.wait_for_selector(".voice-alone")  # nobody else yet; no peer connection made
    assert a.evaluate("window.__pcs.length") == 0
    b.click("[data-voice-mic]")
    for p in (a, b):
        wait_connected(p, 1)
    # no TURN server configured: the page says voice needs the same network
    assert "same network" in a.inner_text("[data-voice-note='info']")
    for p in (a, b):
        hears(p)
    # everyone connected: the list folds away, leaving the felt free; its button opens it
    a.wait_for_selector(".voice-pop", state="detached", timeout=10_000)
    assert a.inner_text("[data-voice-toggle]") == "1/1"
    a.click("[data-voice-toggle]")
    a.wait_for_selector("[data-peer='1'][data-state='connected']")
    # the other player's volume and silence, on this side only
    a.eval_on_selector("[data-peer='1'] [data-voice-volume]", """(el) => {
      el.value = '0.25'; el.dispatchEvent(new Event('input', { bubbles: true })); }""")
    assert a.evaluate("document.querySelector('.voice audio').volume") == 0.25
    a.click("[data-peer='1'] [data-voice-silence]")
    assert a.evaluate("document.querySelector('.voice audio').muted") is True
    a.click("[data-peer='1'] [data-voice-silence]")
    assert a.evaluate("document.querySelector('.voice audio').muted") is False
    # the speaking ring lights the other seat when it is heard
    b.wait_for_selector(".seat[data-seat='0'][data-speaking='true']", timeout=10_000)

    a.click("[data-voice-mute]")
    assert a.get_attribute("[data-voice-mute]", "aria-pressed") == "true"
    silent(b)  # the level is smoothed: it falls, and stays down
    a.click("[data-voice-mute]")
    hears(b)

    # both sides renegotiate at the same moment (glare): perfect negotiation settles it on
    # the same connections, the lower seat's offer winning
    made = [p.evaluate("window.__pcs.length") for p in (a, b)]
    both = "() => window.__pcs[window.__pcs.length - 1].addTransceiver('audio')"
    a.evaluate(both)
    b.evaluate(both)
    settled = """() => { const pc = window.__pcs[window.__pcs.length - 1];
      return pc.signalingState === 'stable' && pc.getTransceivers().every((t) => t.mid !== null)
        && pc.getTransceivers().length === 3 && pc.connectionState === 'connected'; }"""
    for p in (a, b):
        p.wait_for_function(settled, timeout=15_000)
    assert [p.evaluate("window.__pcs.length") for p in (a, b)] == made
    hears(b, level=0)

    # the table's socket drops: the page reconnects and voice renegotiates by itself
    made = a.evaluate("window.__pcs.length")
    a.evaluate("window.__ws[window.__ws.length - 1].close()")
    a.wait_for_function("(n) => window.__pcs.length > n", arg=made, timeout=20_000)
    for p in (a, b):
        wait_connected(p, 1)
    hears(a, level=0)
    hears(b, level=0)

    # a spectator's page shows no voice, gets no offer, and is refused when it tries
    spy = open_seat(server, f"/t/{tid}")
    assert spy.locator("[data-voice]").is_hidden()
    answers = spy.evaluate("""(tid) => new Promise((done) => {
      const got = [];
      const ws = new WebSocket(`ws://${location.host}/api/tables/${tid}/ws`);
      ws.onopen = () => {
        ws.send(JSON.stringify({type: 'voice', on: true}));
        const offer = {description: {type: 'offer', sdp: 'v=0'}};
        ws.send(JSON.stringify({type: 'voice', to: 0, data: offer}));
        // the socket's messages are answered in order: the pong comes after both answers
        ws.send(JSON.stringify({type: 'ping'}));
      };
      ws.onmessage = (e) => {
        const m = JSON.parse(e.data);
        if (m.type === 'voice' || m.type === 'error') got.push(m);
        if (m.type === 'pong') { ws.close(); done(got); }
      };
    })""", tid)
    assert [m["type"] for m in answers] == ["error", "error"], answers
    assert all(m["error"]["code"] == "forbidden" for m in answers)
    assert spy.evaluate("window.__pcs.length") == 0 and spy.evaluate("window.__gum") == 0

    # one side ends voice: the other hangs up its side
    b.click("[data-voice-mic]")
    a.wait_for_selector(".voice-alone")
    assert all(s["state"] != "connected" for s in stats(a))
    for p in (a, b, spy):
        assert p.js_errors == []


def test_a_page_without_voice_opens_no_media_device(server: Server, open_seat: Any) -> None:
    _tid, links = seats_of(server, "court-piece-2p", 2)
    a, b = open_seat(server, links[0]), open_seat(server, links[1])
    b.click("[data-voice-mic]")  # the other seat has voice on: still nothing opened here
    b.wait_for_selector(".voice-alone")
    # the news that seat 1 has voice on has reached this page (and its handler has run)
    a.wait_for_function("""() => window.__voice.some((m) => Array.isArray(m.on)
      && m.on.includes(1))""")
    a.evaluate("() => new Promise((r) => setTimeout(r, 0))")
    assert a.evaluate("window.__gum") == 0 and a.evaluate("window.__pcs.length") == 0
    assert a.get_attribute("[data-voice-mic]", "aria-pressed") == "false"
    a.click("[data-voice-mic]")  # the counter counts: pressing the button opens it once
    wait_connected(a, 1)
    assert a.evaluate("window.__gum") == 1


def test_a_refused_microphone_is_explained(server: Server, new_page: Any) -> None:
    """The session's browser has no fake-ui flag: the permission is denied there."""
    _tid, links = seats_of(server, "court-piece-2p", 2)
    page = new_page("desktop", server.base)
    page.context.add_init_script("""navigator.mediaDevices.getUserMedia = () =>
      Promise.reject(new DOMException('denied', 'NotAllowedError'));""")
    page.goto(links[0])
    page.wait_for_selector("main.table[data-version]")
    page.click("[data-voice-mic]")
    note = page.locator("[data-voice-note='error']")
    assert "allow the microphone" in note.inner_text()
    assert page.get_attribute("[data-voice-mic]", "aria-pressed") == "false"


# A table socket that takes 3 s to open, as on a loaded server or a slow line: the real
# socket is made only then, and until it opens the page sees a connecting one.
SLOW_SOCKET = """(() => {
  const Real = window.WebSocket;
  window.WebSocket = class {
    constructor(url, protocols) {
      this.inner = null; this.closed = false;
      this.onopen = null; this.onmessage = null; this.onclose = null; this.onerror = null;
      const listeners = [];
      this.addEventListener = (kind, fn) => listeners.push([kind, fn]);
      setTimeout(() => {
        if (this.closed) return;
        const ws = new Real(url, protocols);
        this.inner = ws;
        for (const [kind, fn] of listeners) ws.addEventListener(kind, fn);
        ws.onopen = (e) => this.onopen && this.onopen(e);
        ws.onmessage = (e) => this.onmessage && this.onmessage(e);
        ws.onclose = (e) => this.onclose && this.onclose(e);
        ws.onerror = (e) => this.onerror && this.onerror(e);
      }, 3000);
    }
    get readyState() { return this.inner ? this.inner.readyState : (this.closed ? 3 : 0); }
    send(data) { this.inner.send(data); }
    close() { this.closed = true; if (this.inner) this.inner.close(); }
  };
})();"""


def test_voice_turned_on_while_the_socket_connects_is_told_once_it_opens(
        server: Server, open_seat: Any) -> None:
    # Seen in CI: a microphone turned on while the table's socket was still connecting was
    # never told to the server, so nobody could reach that seat.
    _tid, links = seats_of(server, "court-piece-2p", 2)
    slow = open_seat(server, links[0], init=SLOW_SOCKET)
    assert slow.evaluate("window.__ws.length === 0 || window.__ws[0].readyState !== 1")
    slow.click("[data-voice-mic]")
    slow.wait_for_selector('.voice[data-voice="on"]')
    assert slow.evaluate("window.__ws.length === 0 || window.__ws[0].readyState !== 1"), \
        "the socket opened before voice was on: this run did not test the race"
    other = open_seat(server, links[1])
    other.click("[data-voice-mic]")
    for p in (slow, other):
        wait_connected(p, 1)
    assert json.dumps([slow.js_errors, other.js_errors]) == "[[], []]"


def test_four_seats_connect_every_pair(server: Server, open_seat: Any) -> None:
    _tid, links = seats_of(server, "court-piece", 4)
    pages = [open_seat(server, link) for link in links]
    for p in pages:
        p.click("[data-voice-mic]")
    for p in pages:
        wait_connected(p, 3, timeout=45)
    for p in pages:
        hears(p, level=0)
    assert json.dumps([p.js_errors for p in pages]) == "[[], [], [], []]"


class Turn:
    """Debian's coturn on a free loopback port, with coturn's REST API secret."""

    def __init__(self, secret: str, folder: Path) -> None:
        self.port = free_port()
        lo = 49152 + (self.port % 1000) * 10
        self.log = folder / "turn.log"
        self.proc = subprocess.Popen(
            ["turnserver", "-n", "--no-cli", "--listening-ip", "127.0.0.1", "--relay-ip",
             "127.0.0.1", "--listening-port", str(self.port), "--no-tls", "--no-dtls",
             "--use-auth-secret", f"--static-auth-secret={secret}", "--realm", "taash.test",
             "--allow-loopback-peers", "--min-port", str(lo), "--max-port", str(lo + 9),
             "--fingerprint", "--simple-log", "--log-file", str(self.log),
             "--pidfile", str(folder / "turn.pid")],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        with contextlib.suppress(AssertionError):  # it did not start: said below
            wait_until(lambda: self.answers() or self.proc.poll() is not None, timeout=10,
                       what="turnserver to answer")
        if self.proc.poll() is not None or not self.answers():
            self.stop()
            raise RuntimeError("turnserver did not start: "
                               f"{self.log.read_text(errors='replace')[-2000:]}")

    def answers(self) -> bool:
        """Whether it answers a STUN binding request (RFC 5389) on its port."""
        request = struct.pack("!HHI12s", 0x0001, 0, 0x2112A442, os.urandom(12))
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
            s.settimeout(0.2)
            s.sendto(request, ("127.0.0.1", self.port))
            try:
                reply = s.recv(2048)
            except OSError:
                return False
        return reply[8:20] == request[8:20]

    def stop(self) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()


# The candidate types of the selected pair of each open peer connection.
PAIRS = """async () => {
  const out = [];
  for (const pc of window.__pcs) {
    if (pc.signalingState === 'closed') continue;
    const st = await pc.getStats();
    let pair = null;
    st.forEach((r) => {
      const id = r.type === 'transport' && r.selectedCandidatePairId;
      if (id) pair = st.get(id);
    });
    const loc = pair && st.get(pair.localCandidateId);
    const rem = pair && st.get(pair.remoteCandidateId);
    out.push([loc ? loc.candidateType : null, rem ? rem.candidateType : null]);
  }
  return out;
}"""


@pytest.mark.parametrize("right", [True, False], ids=["right-secret", "wrong-secret"])
def test_audio_through_a_turn_relay(right: bool, tmp_path: Path, open_seat: Any,
                                    monkeypatch: pytest.MonkeyPatch) -> None:
    if shutil.which("turnserver") is None:
        unavailable("the TURN test needs coturn's turnserver (apt-get install coturn)")
    turn = Turn("the-relay-secret", tmp_path)
    try:
        monkeypatch.setenv("TAASH_ICE_SERVERS", json.dumps(
            [{"urls": f"turn:127.0.0.1:{turn.port}?transport=udp"}]))
        monkeypatch.setenv("TAASH_TURN_SECRET", "the-relay-secret" if right else "guessed")
        server = Server(tmp_path / "turn.db", log=tmp_path / "server.log").start()
        try:
            tid, links = seats_of(server, "court-piece-2p", 2)
            a, b = open_seat(server, links[0]), open_seat(server, links[1])
            for p in (a, b):  # the page's setting: relay only, never a direct path
                p.evaluate("localStorage.setItem('taash.voice_relay', '1')")
                p.reload()
                p.wait_for_selector("main.table[data-version]")
                p.click("[data-voice-mic]")
            if right:
                for p in (a, b):
                    wait_connected(p, 1)
                    assert p.locator("[data-voice-note]").count() == 0  # no "same network"
                for p in (a, b):
                    hears(p)
                    assert p.evaluate(PAIRS) == [["relay", "relay"]]
            else:
                # coturn refused the credentials the server made with the wrong secret, for
                # both seats, and each page has given up gathering (relay only: no candidate)
                wait_until(lambda: all(f":{tid}.{s}>" in turn.log.read_text(errors="replace")
                                       for s in (0, 1)), timeout=30, every=0.1,
                           what="coturn to refuse both seats")
                for p in (a, b):
                    p.wait_for_function("""() => window.__pcs.length > 0 && window.__pcs.every(
                      (pc) => pc.signalingState === 'closed'
                        || pc.iceGatheringState === 'complete')""", timeout=30_000)
                for p in (a, b):
                    assert all(s["state"] != "connected" and s["bytes"] == 0
                               for s in stats(p)), stats(p)
                # coturn refused the credentials the server made with the wrong secret
                log = turn.log.read_text(errors="replace")
                assert "check_stun_auth" in log and f":{tid}.0>" in log, log[-2000:]
        finally:
            server.stop()
    finally:
        turn.stop()
