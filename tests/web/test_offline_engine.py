"""Offline play's engine in Chromium (issue 46): Pyodide, served by `taash serve` from the
package, runs taash's own rules core and bots in a module worker (offline_worker.js), and it is
the same rules: whole matches of every game played there by bots in every seat verify with
`taash.record.verify`, matches of the seeded easy and random bots are the very records CPython
makes, a refusal is the server's (its rule id and words), and the shared conformance scenarios
give what `taash record verify` gives.  Pyodide loads once for the module."""

from __future__ import annotations

import json
import subprocess
import sys
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest

from taash.games import IllegalAction, game_class
from taash.offline import Engine, checked
from taash.record import load, replay
from taash.server.errors import error_of
from tests.conftest import CONFORMANCE, unavailable
from tests.test_conformance import _assert_contains
from tests.test_offline import play, script
from tests.web.helpers import ROOT, Server, call, create_table

pytestmark = [pytest.mark.browser, pytest.mark.slow]

START = """async () => {
  const { OfflineEngine } = await import('/assets/offline_engine.js');
  window.engine = new OfflineEngine();
  const t0 = performance.now();
  const late = new Promise((resolve) => setTimeout(() => resolve({ late: true }), 240000));
  const about = await Promise.race([window.engine.ask({ op: 'hello' }), late]);
  return { ...about, page_ms: Math.round(performance.now() - t0) };
}"""

# A whole match, bots in every seat (the loop tests/test_offline.play runs in CPython); once,
# a few moves in, the seat to move tries a card it holds that it may not play, and the
# engine's refusal is kept with the version it came at.
PLAY = """async ({ game, options, seed, levels, budget }) => {
  const e = window.engine;
  const made = await e.ask({ op: 'new', game, options, seed });
  if (made.error) return made;
  const m = made.match;
  let refusal = null;
  const hard = [];
  for (let i = 0; i < 5000; i++) {
    const a = await e.ask({ op: 'actors', match: m });
    if (a.over) break;
    let moved = false;
    for (const seat of a.actors) {
      const level = levels[seat];
      const b = await e.ask({ op: 'bot', match: m, seat, level,
                              budget_ms: level === 'hard' ? budget : undefined });
      if (b.error) return b;
      if (level === 'hard') hard.push(b.ms);
      if (b.action === null) continue;
      if (!refusal && a.version >= 6) {
        const v = (await e.ask({ op: 'view', match: m, seat })).view;
        const single = v.legal_actions.find((x) => /^[a-z]+:[0-9TJQKA][SHDC]$/.test(x));
        const verb = single && single.split(':')[0];
        const card = verb && v.hand.find((c) => !v.legal_actions.includes(`${verb}:${c}`));
        if (card) {
          const r = await e.ask({ op: 'apply', match: m, seat, action: `${verb}:${card}` });
          refusal = { version: r.version, seat, action: `${verb}:${card}`, error: r.error };
        }
      }
      const r = await e.ask({ op: 'apply', match: m, seat, action: b.action });
      if (r.error) return r;
      moved = true;
      break;
    }
    if (!moved) return { error: { code: 'stuck', message: JSON.stringify(a) } };
  }
  const rec = (await e.ask({ op: 'record', match: m })).record;
  const verified = await e.ask({ op: 'verify', record: rec });
  await e.ask({ op: 'close', match: m });
  return { record: rec, refusal, hard, verified };
}"""


@dataclass
class InPage:
    """The page that holds the engine, what it asked of the network and what it said."""

    page: Any
    about: dict[str, Any]
    requests: list[str] = field(default_factory=list)
    console: list[str] = field(default_factory=list)

    def ask(self, msg: dict[str, Any]) -> Any:
        return self.page.evaluate("(msg) => window.engine.ask(msg)", msg)


@pytest.fixture(scope="module")
def offline_files() -> None:
    """Pyodide and the engine's zip in place, the zip made from the source as it is now."""
    out = subprocess.run([sys.executable, str(ROOT / "scripts" / "offline")],
                         capture_output=True, text=True, timeout=600)
    if out.returncode:
        unavailable(f"offline play's files are missing: {out.stderr.strip()}")


@pytest.fixture(scope="module")
def in_page(browser: Any, server: Server, offline_files: None) -> Iterator[InPage]:
    ctx = browser.new_context(base_url=server.base, service_workers="block")
    ctx.set_default_timeout(60_000)
    page = ctx.new_page()
    seen = InPage(page, {})
    page.on("request", lambda r: seen.requests.append(r.url))
    page.on("console", lambda m: seen.console.append(m.text))
    page.goto("/assets/fair.html")
    seen.about = page.evaluate(START)
    assert not seen.about.get("late") and "error" not in seen.about, (seen.about, seen.console)
    yield seen
    ctx.close()


def test_pyodide_and_taash_come_from_this_server_alone(in_page: InPage, server: Server) -> None:
    about = in_page.about
    assert about["pyodide"] == script().PYODIDE_VERSION
    assert tuple(int(x) for x in about["python"].split(".")[:2]) >= (3, 11)
    loaded = [u for u in in_page.requests if "/assets/offline/" in u]
    assert any(u.endswith("/pyodide.asm.wasm") for u in loaded), in_page.requests
    assert any(u.endswith("/taash.zip") for u in loaded), in_page.requests
    assert all(u.startswith(server.base + "/") for u in in_page.requests), in_page.requests
    assert not [m for m in in_page.console if "Content Security Policy" in m], in_page.console


def csp(server: Server, path: str) -> str:
    with urllib.request.urlopen(server.base + path, timeout=10) as r:
        return str(r.headers["content-security-policy"])


def test_only_the_engines_worker_may_compile_webassembly(server: Server) -> None:
    assert "script-src 'self' 'wasm-unsafe-eval';" in csp(server, "/assets/offline_worker.js")
    for path in ("/", "/assets/offline_engine.js", "/assets/offline/pyodide/pyodide.mjs"):
        assert "script-src 'self';" in csp(server, path), path


# game, options, a level per seat, the hard bot's budget (ms): the first match of each game
# has no hard bot, so CPython, given the seed, must make the very same record
MATCHES = [
    ("court-piece", {"session_end": {"deals": 2}}, ["easy", "random", "easy", "random"], None),
    ("court-piece", {"sar": "double", "ace_rule": True, "trump_rule": "most-held",
                     "session_end": {"deals": 2}}, ["hard", "easy", "random", "easy"], 10),
    # the other two sets of Court Piece's options: double sar without the ace rule, and
    # single sar with the most-held trump rule, so every option is played in the page
    ("court-piece", {"sar": "double", "session_end": {"deals": 2}},
     ["random", "easy", "random", "easy"], None),
    ("court-piece", {"trump_rule": "most-held", "session_end": {"deals": 2}},
     ["easy", "easy", "random", "random"], None),
    ("court-piece-2p", None, ["easy", "random"], None),
    ("court-piece-2p", {"target": 2}, ["hard", "easy"], 10),
    ("goat", None, ["easy", "random", "easy", "random"], None),
    ("goat", {"eggs": "double-next", "target": 4}, ["hard", "random", "easy", "hard"], 10),
]


def prefix(rec: dict[str, Any], version: int) -> dict[str, Any]:
    """The record of the match as it stood after ``version`` actions."""
    deals, before = [], 0
    for d in rec["deals"]:
        n = len(d["actions"])
        deals.append({**d, "actions": d["actions"][:version - before]})
        if before + n > version:
            break
        before += n
    return {**rec, "deals": deals}


@pytest.mark.parametrize(("game", "options", "levels", "budget"), MATCHES,
                         ids=[f"{m[0]}-{[n[0] for n in MATCHES[:i]].count(m[0])}"
                              for i, m in enumerate(MATCHES)])
def test_a_whole_match_in_the_page_is_the_same_rules(
        in_page: InPage, game: str, options: Any, levels: list[str], budget: int | None) -> None:
    seed = 4100 + len(levels) + (0 if budget is None else 1)
    out = in_page.page.evaluate(PLAY, {"game": game, "options": options, "seed": seed,
                                       "levels": levels, "budget": budget})
    assert "error" not in out, out
    rec = out["record"]
    summary = json.loads(json.dumps(checked(rec)["summary"]))  # record verify's code, CPython
    assert summary["match"]["over"] is True, summary
    assert out["verified"] == {"summary": summary}
    assert load(json.dumps(rec))["options"] == game_class(game).check_options(options)
    if budget is None:
        assert play(Engine(), game, options, seed, levels) == rec
    else:
        assert out["hard"], "the hard bot never moved"
    # the refusal in the page is the server's answer to the same action at the same state
    ref = out["refusal"]
    assert ref is not None and ref["error"]["code"] == "illegal", ref
    state = replay(load(prefix(rec, ref["version"])))
    with pytest.raises(IllegalAction) as raised:
        state.apply(ref["seat"], ref["action"])
    assert ref["error"] == json.loads(json.dumps(error_of(raised.value)))


@pytest.mark.parametrize("game", ["court-piece", "court-piece-2p", "goat"])
def test_out_of_turn_is_refused_with_the_rule_a_live_table_gives(
        in_page: InPage, server: Server, game: str) -> None:
    n = game_class(game).num_seats
    t = create_table(server.base, game, [{"type": "human"}] * n)
    tokens = [s["token"] for s in t["seats"]]
    pub = call(server.base, "GET", f"/api/tables/{t['id']}")
    mover = pub["table"]["to_move"]
    other = (mover + 1) % n
    action = call(server.base, "GET", f"/api/tables/{t['id']}/view",
                  token=tokens[mover])["legal_actions"][0]
    with pytest.raises(urllib.error.HTTPError) as refused:
        call(server.base, "POST", f"/api/tables/{t['id']}/actions",
             {"action": action, "version": pub["version"]}, tokens[other])
    assert refused.value.code == 409
    online = json.loads(refused.value.read())["error"]
    made = in_page.ask({"op": "new", "game": game, "seed": 9})
    m = made["match"]
    mover = made["actors"][0]
    action = in_page.ask({"op": "legal", "match": m, "seat": mover})["legal_actions"][0]
    offline = in_page.ask({"op": "apply", "match": m, "seat": (mover + 1) % n,
                           "action": action})["error"]
    assert offline["code"] == online["code"] == "illegal"
    assert offline["rule"] == online["rule"], (offline, online)


def test_the_conformance_scenarios_give_what_record_verify_gives(in_page: InPage) -> None:
    cases = {p.stem: json.loads(p.read_text()) for p in sorted(CONFORMANCE.glob("*.json"))}
    assert len(cases) >= 17
    got = in_page.page.evaluate(
        "async (records) => { const out = {};"
        " for (const [k, r] of Object.entries(records))"
        "   out[k] = await window.engine.ask({ op: 'verify', record: r });"
        " return out; }", {k: c["record"] for k, c in cases.items()})
    for name, case in cases.items():
        assert got[name] == json.loads(json.dumps(checked(case["record"]))), name
        expect = case["expect"]
        if "summary" in expect:
            _assert_contains(expect["summary"], got[name]["summary"])
        else:
            assert got[name]["error"]["exit"] == expect["error"]["exit"], name


def strict(route: Any) -> None:
    """The worker's script with the page's own policy: no 'wasm-unsafe-eval'."""
    res = route.fetch()
    headers = dict(res.headers)
    headers["content-security-policy"] = headers["content-security-policy"].replace(
        " 'wasm-unsafe-eval'", "")
    route.fulfill(response=res, headers=headers)


@pytest.mark.parametrize(("path", "answer", "said"), [
    ("**/assets/offline_worker.js", strict, "WebAssembly cannot run here"),
    ("**/assets/offline/pyodide/pyodide.asm.wasm", lambda r: r.fulfill(status=404),
     "pyodide.asm.wasm: 404"),
    # the interpreter damaged: its magic number and version, then bytes that are no module
    ("**/assets/offline/pyodide/pyodide.asm.wasm",
     lambda r: r.fulfill(status=200, content_type="application/wasm",
                         body=b"\0asm\x01\0\0\0" + b"\x7f" * 4096),
     "pyodide.asm.wasm could not be compiled (WebAssembly.instantiateStreaming()"),
], ids=["no-wasm-unsafe-eval", "no-interpreter", "damaged-interpreter"])
def test_an_engine_that_cannot_start_says_why(
        browser: Any, server: Server, offline_files: None, path: str, answer: Any,
        said: str) -> None:
    """Pyodide's loader would wait for ever (it only warns): the engine answers instead, with
    the words the page shows ("offline play could not start: ...")."""
    ctx = browser.new_context(base_url=server.base, service_workers="block")
    try:
        ctx.route(path, answer)
        page = ctx.new_page()
        page.goto("/assets/fair.html")
        about = page.evaluate(START)
        assert about.get("error", {}).get("code") == "unavailable", about
        assert about["error"]["message"].startswith("offline play could not start: "), about
        assert said in about["error"]["message"], about
    finally:
        ctx.close()
