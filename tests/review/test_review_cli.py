"""`taash review` through the real command: piped output for every game, --seat, --json, the
terminal keys (through a pseudo-terminal), and the errors of `record verify`."""

from __future__ import annotations

import copy
import json
import os
import pty
import re
import select
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from taash.review.analyse import load_solver
from tests.conftest import run_taash

GAMES = [("court-piece", None), ("court-piece", '{"sar": "double"}'),
         ("court-piece-2p", None), ("goat", None)]


def make_record(tmp_path: Path, game: str, options: str | None, seed: int = 3,
                deals: int = 2) -> tuple[Path, dict[str, Any]]:
    args = ["record", "random", "--game", game, "--seed", str(seed), "--deals", str(deals),
            "--fair"]
    if options:
        args += ["--options", options]
    out = run_taash(*args)
    assert out.returncode == 0, out.stderr
    f = tmp_path / f"{game}.json"
    f.write_text(out.stdout)
    return f, json.loads(out.stdout)


def one_line_error(out: Any, code: int) -> str:
    assert out.returncode == code, (out.returncode, out.stdout, out.stderr)
    assert out.stdout == ""
    lines = out.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in out.stderr, out.stderr
    return lines[0]


@pytest.mark.slow
@pytest.mark.parametrize(("game", "options"), GAMES)
def test_piped_review_prints_every_trick_of_every_deal_and_the_result(
        tmp_path: Path, game: str, options: str | None) -> None:
    f, rec = make_record(tmp_path, game, options)
    out = run_taash("review", str(f), input="")
    assert out.returncode == 0, out.stderr
    text = out.stdout
    for deal in range(2):
        assert f"Deal {deal} " in text
    totals = [int(n) for n in re.findall(r"Trick 1 of (\d+)", text)]
    assert len(totals) == 2
    for n in totals:
        for k in range(1, n + 1):
            assert f"Trick {k} of {n}" in text
    assert text.count("Result:") == 2 and text.count("fair: checked") == 2
    assert text.count("wins the trick") == sum(totals)
    plays = sum(1 for d in rec["deals"] for a in d["actions"]
                if not a["action"].startswith("trump"))
    assert len(re.findall(r"^  seat \d.*(plays|leads|beats with|passes|molodka)", text,
                          re.M)) == plays
    if game != "goat":
        assert text.count("as trump from the first five") == 2
    else:
        assert "(face down)" in text and "card points" in text


@pytest.mark.slow
def test_goat_passes_are_shown_face_up(tmp_path: Path) -> None:
    f, rec = make_record(tmp_path, "goat", None, seed=5, deals=1)
    out = run_taash("review", str(f), "--deal", "0", input="")
    assert out.returncode == 0, out.stderr
    passes = [a["action"] for a in rec["deals"][0]["actions"] if a["action"].startswith("pass")]
    shown = re.findall(r"passes (.*?)  \(face down\)", out.stdout)
    assert len(shown) == len(passes) and all(s.strip() for s in shown)


def test_seat_shows_only_that_hand(tmp_path: Path) -> None:
    f, _ = make_record(tmp_path, "court-piece", None, deals=1)
    out = run_taash("review", str(f), "--seat", "2", input="")
    assert out.returncode == 0, out.stderr
    assert "(only seat 2 (you))" in out.stdout
    hands = [line for line in out.stdout.splitlines()
             if re.match(r"^  seat \d", line) and not re.search(r"plays|calls", line)]
    tricks = int(re.findall(r"Trick 1 of (\d+)", out.stdout)[0])
    assert len(hands) == 1 + tricks  # after the call, then before each trick
    assert all(line.startswith("  seat 2 (you)") for line in hands), hands


@pytest.mark.slow
def test_json_has_an_entry_per_action_with_its_analysis(tmp_path: Path) -> None:
    f, rec = make_record(tmp_path, "court-piece-2p", None, deals=2)
    out = run_taash("review", str(f), "--json", "--deal", "1", "--solver-time", "0.5")
    assert out.returncode == 0, out.stderr
    doc = json.loads(out.stdout)
    assert doc["game"] == "court-piece-2p" and len(doc["deals"]) == 1
    d = doc["deals"][0]
    actions = rec["deals"][1]["actions"]
    assert len(d["actions"]) == len(actions)
    for entry, a in zip(d["actions"], actions, strict=True):
        assert {"trick", "seat", "action", "known", "open"} <= set(entry)
        assert entry["seat"] == a["seat"] and entry["action"] == a["action"]
        assert entry["known"]["hard"] is not None
        assert isinstance(entry["known"]["matched"], bool)
    # with only what the player knew: hard's candidates scored over its samples
    searched = [e["known"] for e in d["actions"] if "scores" in e["known"]]
    assert searched and all(k["hard"] in k["scores"] and k["samples"] > 0 for k in searched)
    assert all(k["gain"] is None for k in searched if k["matched"])
    assert d["actions"][0]["trick"] == 0 and d["actions"][1]["trick"] == 1
    assert [s["seat"] for s in d["seats"]] == [0, 1]
    assert sum(s["actions"] for s in d["seats"]) == len(actions)
    assert d["result"]["complete"] and d["result"]["fair"] is True
    assert len(d["tricks"]) == sum(d["result"]["tricks"])
    assert d["call"]["seat"] == d["result"]["caller"] and len(d["call"]["first_cards"]) == 5
    judged = [e for e in d["actions"] if e["open"]["verdict"] is not None]
    if load_solver() is None:
        assert not judged and any("not available" in n for n in d["notes"])
    else:  # the last tricks of a two-player deal are solved well within the time
        assert judged and judged[-1]["step"] == len(actions) - 1
        assert {"before", "after", "best", "standing_before"} <= set(judged[-1]["open"])
        assert sum(s["judged"] for s in d["seats"]) == len(judged)


@pytest.mark.slow
def test_json_for_every_game_and_one_seat(tmp_path: Path) -> None:
    for game, options in GAMES[1:]:
        f, rec = make_record(tmp_path, game, options, deals=1)
        out = run_taash("review", str(f), "--json", "--seat", "1", "--solver-time", "0.2")
        assert out.returncode == 0, out.stderr
        d = json.loads(out.stdout)["deals"][0]
        assert len(d["actions"]) == len(rec["deals"][0]["actions"])
        analysed = [e for e in d["actions"] if e["known"] is not None]
        assert analysed and all(e["seat"] == 1 for e in analysed)
        assert [s["seat"] for s in d["seats"]] == [1]
        if game == "goat":
            assert all("points" in t for t in d["tricks"])
            assert all(p["cards"] for t in d["tricks"] for p in t["plays"])
        if options:
            assert all("collector" in t for t in d["tricks"])


def test_json_without_analysis(tmp_path: Path) -> None:
    f, rec = make_record(tmp_path, "goat", None, deals=2)
    out = run_taash("review", str(f), "--json", "--no-analyse")
    assert out.returncode == 0, out.stderr
    doc = json.loads(out.stdout)
    assert [len(d["actions"]) for d in doc["deals"]] == [len(d["actions"]) for d in rec["deals"]]
    assert "known" not in doc["deals"][0]["actions"][0]


@pytest.mark.slow
def test_deal_out_of_range_is_one_clear_line(tmp_path: Path) -> None:
    f, _ = make_record(tmp_path, "court-piece-2p", None, deals=2)
    line = one_line_error(run_taash("review", str(f), "--deal", "2"), 2)
    assert "--deal must be 0..1" in line and "2 deals" in line
    line = one_line_error(run_taash("review", str(f), "--seat", "2"), 2)
    assert "--seat must be 0..1" in line


@pytest.mark.slow
@pytest.mark.parametrize("bad", ["{deals: [", "[1, 2]", '{"game": "bridge"}'])
def test_a_malformed_record_exits_2_with_one_line(tmp_path: Path, bad: str) -> None:
    f = tmp_path / "bad.json"
    f.write_text(bad)
    line = one_line_error(run_taash("review", str(f)), 2)
    assert line.startswith("taash: malformed record:")
    assert one_line_error(run_taash("review", "-", input=bad), 2) == line


def test_a_bad_card_in_a_deck_is_malformed(tmp_path: Path) -> None:
    _, rec = make_record(tmp_path, "goat", None, deals=1)
    bad = copy.deepcopy(rec)
    bad["deals"][0]["deck"][3] = "1H"
    line = one_line_error(run_taash("review", "-", input=json.dumps(bad)), 2)
    assert "deals[0].deck[3]" in line


def test_an_illegal_action_and_an_unfair_deal_exit_as_verify_does(tmp_path: Path) -> None:
    _, rec = make_record(tmp_path, "court-piece-2p", None, deals=1)
    illegal = copy.deepcopy(rec)
    a = illegal["deals"][0]["actions"][1]
    a["seat"] = 1 - a["seat"]
    line = one_line_error(run_taash("review", "-", input=json.dumps(illegal)), 1)
    assert line.startswith("deal 0, action 1, seat ")
    unfair = copy.deepcopy(rec)
    s = unfair["deals"][0]["fair"]["secret"]
    unfair["deals"][0]["fair"]["secret"] = ("0" if s[0] != "0" else "1") + s[1:]
    line = one_line_error(run_taash("review", "-", input=json.dumps(unfair)), 3)
    assert line.startswith("deal 0: not fair:")


@pytest.mark.slow
def test_no_file_and_no_deals_are_one_line(tmp_path: Path) -> None:
    assert "cannot read" in one_line_error(run_taash("review", str(tmp_path / "none.json")), 2)
    empty = '{"game": "goat", "first_dealer": 0, "deals": []}'
    assert "no deals" in one_line_error(run_taash("review", "-", input=empty), 2)
    assert "FILE" in one_line_error(run_taash("review"), 2)


class Terminal:
    """`taash review` on a pseudo-terminal: the keys as a person types them."""

    def __init__(self, *args: str) -> None:
        pid, fd = pty.fork()
        if pid == 0:  # the child: the real command
            os.environ.update(COLUMNS="120", PYTHONUNBUFFERED="1")
            os.execv(sys.executable, [sys.executable, "-m", "taash", "review", *args])
        self.pid, self.fd = pid, fd
        self.out = ""

    def screen(self, timeout: float = 30) -> str:
        """The text up to the next prompt (or the end)."""
        got = b""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            r, _, _ = select.select([self.fd], [], [], 0.1)
            if not r:
                continue
            try:
                chunk = os.read(self.fd, 65536)
            except OSError:
                break
            if not chunk:
                break
            got += chunk
            if re.search(rb"q quit[^>]*> (\x1b\[0m)?$", got):
                break
        text = re.sub(r"\x1b\[[0-9;]*m", "", got.decode("utf-8", "replace"))
        self.out += text
        return text

    def key(self, k: str) -> str:
        os.write(self.fd, k.encode() + b"\n")
        return self.screen()

    def close(self) -> int:
        _, status = os.waitpid(self.pid, 0)
        os.close(self.fd)
        return os.waitstatus_to_exitcode(status)


def test_the_keys_step_forward_back_jump_toggle_hands_and_quit(tmp_path: Path) -> None:
    f, _ = make_record(tmp_path, "court-piece-2p", None, deals=1)
    t = Terminal(str(f), "--seat", "1")
    try:
        first = t.screen()
        assert "as trump from the first five" in first and "q quit" in first
        assert "Trick 1 of" in t.key("")
        assert "Trick 2 of" in t.key("n")
        assert "Trick 1 of" in t.key("b")
        jumped = t.key("3")
        assert "Trick 3 of" in jumped and "(only seat 1 (you))" in jumped
        opened = t.key("o")
        assert "Trick 3 of" in opened and "(only seat" not in opened
        assert "  seat 0 " in opened
        assert "Keys:" in t.key("x")
        t.key("q")
    finally:
        code = t.close()
    assert code == 0


def test_run_through_a_pipe_does_not_wait_for_keys(tmp_path: Path) -> None:
    f, _ = make_record(tmp_path, "goat", None, deals=1)
    out = subprocess.run([sys.executable, "-m", "taash", "review", str(f)], input="q\n",
                         text=True, capture_output=True, timeout=120)
    assert out.returncode == 0 and "Result:" in out.stdout and "q quit" not in out.stdout


@pytest.mark.slow
def test_a_record_that_stops_inside_a_deal_shows_how_far_it_went(tmp_path: Path) -> None:
    _, rec = make_record(tmp_path, "goat", None, deals=1)
    rec["deals"][0]["actions"] = rec["deals"][0]["actions"][:6]
    out = run_taash("review", "-", input=json.dumps(rec))
    assert out.returncode == 0, out.stderr
    assert "Trick 1 of 1" in out.stdout and "Trick 2, not finished:" in out.stdout
    assert "the record stops inside this deal" in out.stdout
    # analysed too (--json does), with a short solver time: early Goat positions with every
    # hand open would otherwise take the default 2 s each
    doc = json.loads(run_taash("review", "-", "--json", "--solver-time", "0.05",
                               input=json.dumps(rec)).stdout)
    assert not doc["deals"][0]["complete"] and len(doc["deals"][0]["actions"]) == 6
