"""Offline play's engine (taash.offline) in CPython, and scripts/offline, which puts Pyodide and
the engine's modules among the page's files (issue 46).  The same engine under Pyodide, in
Chromium, is tests/web/test_offline_engine.py."""

from __future__ import annotations

import importlib.machinery
import importlib.util
import io
import json
import zipfile
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from taash.games import CLASSES, IllegalAction
from taash.offline import Engine, checked
from taash.server.errors import error_of
from tests.conftest import CONFORMANCE

ROOT = Path(__file__).resolve().parents[1]
# Options beyond the defaults, one set per game, each a short match.
SHORT = {"court-piece": {"sar": "double", "ace_rule": True, "session_end": {"deals": 2}},
         "court-piece-2p": {"target": 2}, "goat": {"eggs": "double-next", "target": 4}}


def script() -> ModuleType:
    """scripts/offline, loaded as a module (it has no .py suffix)."""
    path = str(ROOT / "scripts" / "offline")
    loader = importlib.machinery.SourceFileLoader("offline_script", path)
    spec = importlib.util.spec_from_loader("offline_script", loader)
    assert spec is not None
    module = importlib.util.module_from_spec(spec)
    loader.exec_module(module)
    return module


def play(e: Engine, game: str, options: Any, seed: int,
         levels: list[str] | None = None) -> dict[str, Any]:
    """A whole match through the engine's messages, a bot in every seat (``levels``, one per
    seat, easy by default); its record.  The browser test's page plays the same loop."""
    m = e.handle({"op": "new", "game": game, "options": options, "seed": seed})["match"]
    for _ in range(5000):
        a = e.handle({"op": "actors", "match": m})
        if a["over"]:
            return e.handle({"op": "record", "match": m})["record"]
        for seat in a["actors"]:
            level = "easy" if levels is None else levels[seat]
            b = e.handle({"op": "bot", "match": m, "seat": seat, "level": level})
            if b["action"] is not None:
                assert "error" not in e.handle({"op": "apply", "match": m, "seat": seat,
                                                "action": b["action"]})
                break
        else:
            raise AssertionError(f"nobody moved: {a}")
    raise AssertionError("the match did not end")


@pytest.mark.parametrize("game", sorted(CLASSES))
def test_a_whole_match_verifies_and_a_seed_repeats_it(game: str) -> None:
    rec = play(Engine(), game, SHORT[game], seed=11)
    out = checked(rec)
    assert out["summary"]["match"]["over"] is True, out
    assert play(Engine(), game, SHORT[game], seed=11) == rec
    assert play(Engine(), game, SHORT[game], seed=12) != rec


@pytest.mark.parametrize("game", sorted(CLASSES))
def test_a_refusal_is_the_servers_error_object(game: str) -> None:
    """An action the seat to move may not take: the engine's error is what the server's
    error_of makes of the core's IllegalAction (rule, message, key, params)."""
    e = Engine()
    new = e.handle({"op": "new", "game": game, "seed": 5, "first_seat": 0})
    m, seat = new["match"], new["actors"][0]
    state = e.tables[m].state
    legal = set(state.legal_actions(seat))
    wrong = next(f"play:{c}" for c in ("AS", "AH", "AD", "AC", "KS", "KH")
                 if f"play:{c}" not in legal and f"lead:{c}" not in legal)
    with pytest.raises(IllegalAction) as raised:
        state.clone().apply(seat, wrong)
    got = e.handle({"op": "apply", "match": m, "seat": seat, "action": wrong})
    assert got["error"] == json.loads(json.dumps(error_of(raised.value)))
    assert got["version"] == 0 and e.handle({"op": "actors", "match": m})["actors"] == [seat]
    malformed = e.handle({"op": "apply", "match": m, "seat": seat, "action": "play:ZZ"})
    assert malformed["error"]["code"] == "malformed"


def test_the_hard_bot_moves_within_its_budget_and_levels_have_their_aliases() -> None:
    e = Engine()
    new = e.handle({"op": "new", "game": "court-piece", "seed": 2, "first_seat": 1})
    m, seat = new["match"], new["actors"][0]
    legal = e.handle({"op": "legal", "match": m, "seat": seat})["legal_actions"]
    hard = e.handle({"op": "bot", "match": m, "seat": seat, "level": "hard", "budget_ms": 5})
    assert hard["action"] in legal and hard["ms"] >= 0
    easy = e.handle({"op": "bot", "match": m, "seat": seat, "level": "heuristic"})
    assert easy["action"] in legal
    assert e.handle({"op": "view", "match": m, "seat": seat})["view"]["hand"]
    assert "hand" not in e.handle({"op": "view", "match": m})["view"]


@pytest.mark.parametrize("msg", [
    {"op": "fly"}, {"op": "view", "match": 99}, {"op": "new", "game": "chess"},
    {"op": "new", "game": "goat", "options": {"target": 0}},
    {"op": "new", "game": "goat", "seed": -1}, {"op": "new", "game": "goat", "first_seat": 4},
    {"op": "legal", "match": 1, "seat": 7}, {"op": "bot", "match": 1, "seat": 0, "level": "god"},
    {"op": "bot", "match": 1, "seat": 0, "level": "hard", "budget_ms": 0},
    {"op": "apply", "match": 1, "seat": 0, "action": 3},
])
def test_a_bad_request_is_refused_in_words(msg: dict[str, Any]) -> None:
    e = Engine()
    e.handle({"op": "new", "game": "goat", "seed": 1})
    err = e.handle(msg)["error"]
    assert err["code"] == "bad_request" and err["message"], err
    assert json.loads(e.handle_json("[1, 2"))["error"]["code"] == "bad_request"


def test_a_closed_match_is_gone() -> None:
    e = Engine()
    m = e.handle({"op": "new", "game": "goat"})["match"]
    assert e.handle({"op": "close", "match": m}) == {}
    assert e.handle({"op": "summary", "match": m})["error"]["code"] == "bad_request"


@pytest.mark.parametrize("path", sorted(CONFORMANCE.glob("*.json")), ids=lambda p: p.stem)
def test_verify_answers_as_record_verify_exits(path: Path) -> None:
    """The shared conformance scenarios through the engine's verify (test_conformance runs
    them through `taash record verify`; the browser test, through the engine in the page)."""
    case = json.loads(path.read_text())
    out = checked(case["record"])
    expect = case["expect"]
    if "summary" in expect:
        assert "summary" in out, out
        return
    assert out["error"]["exit"] == expect["error"]["exit"], out
    if expect["error"]["exit"] == 1:
        assert out["error"]["message"].startswith(
            f"deal {expect['error']['deal']}, action {expect['error']['action']}, seat ")


# -- scripts/offline ------------------------------------------------------------------------
def test_the_zip_holds_the_engines_modules_and_nothing_of_the_server() -> None:
    s = script()
    data, sums = s.taash_zip()
    names = zipfile.ZipFile(io.BytesIO(data)).namelist()
    assert names == sorted(sums)
    assert {"taash/offline.py", "taash/games/goat.py", "taash/bots/hard.py", "taash/record.py",
            "taash/fair.py", "taash/cards.py", "taash/__init__.py"} <= set(names)
    assert not [n for n in names if n.startswith(("taash/server", "taash/cli", "taash/play",
                                                  "taash/review", "taash/interop"))
                or n.endswith("arena.py")], names
    assert s.taash_zip()[0] == data  # the same source, the same bytes


def test_a_module_outside_the_standard_library_is_refused(tmp_path: Path) -> None:
    s = script()
    pkg = tmp_path / "taash"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "offline.py").write_text("from taash import helper\n")
    (pkg / "helper.py").write_text("import numpy\n")
    s.SRC, s.ROOT = tmp_path, tmp_path
    with pytest.raises(s.Failed, match=r"taash/helper\.py imports numpy"):
        s.closure("taash.offline")


def test_a_tarball_whose_checksum_is_not_pinned_is_refused_in_one_line(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "pyodide.tgz"
    bad.write_bytes(b"not the tarball")
    dest = tmp_path / "offline"
    assert script().main(["--tarball", str(bad), "--dest", str(dest)]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "SHA-256" in err and "not the pinned" in err, err
    assert not dest.exists()
    assert script().main(["--tarball", str(tmp_path / "none.tgz"), "--dest", str(dest)]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "could not fetch" in err, err
    assert script().main(["--fast"]) == 2
