"""Stats from records (taash.stats) and `taash stats` through the real command.

The records are random matches made by the core (``random_record``) with fixed seeds; each
test's comment lists the deals' results as ``record verify`` summarises them, and the expected
figures are counted by hand from those lines.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from taash.games.base import RecordError
from taash.record import random_record
from taash.stats import add_record, compute, opponent_kind
from tests.conftest import run_taash

BOT = {"type": "bot", "level": "easy"}
HARD = {"type": "bot", "level": "hard"}


def human(name: str, player: str | None = None) -> dict[str, Any]:
    return {"type": "human", "name": name, "player": player}


def rec(game: str, options: Any, seed: int, seats: list[Any] | None = None) -> dict[str, Any]:
    r = random_record(game, options, seed=seed)
    if seats is not None:
        r["seats"] = seats
    return r


# seed 0, {"deals": 2}: deal winners 0, 1; no coat; a draw
CP_DRAW = ("court-piece", {"session_end": {"deals": 2}}, 0)
# seed 37, {"deals": 3}: deal winners 1, 0 (a coat), 0; team 0 wins
CP_COAT = ("court-piece", {"session_end": {"deals": 3}}, 37)
# seed 1, {"deals": 5}: deal winners 0, 1, 1, 1, 0; team 1 wins
CP_LOSS = ("court-piece", {"session_end": {"deals": 5}}, 1)


def test_court_piece_from_team_0() -> None:
    people = [human("me"), human("a"), human("b"), human("c")]
    bots = [human("me"), BOT, human("p"), BOT]
    st = compute([(rec(*CP_DRAW, people), 0), (rec(*CP_COAT, bots), 0),
                  (rec(*CP_LOSS, bots), 2)])["court-piece"].as_json()
    assert st == {
        "game": "court-piece",
        "matches": {"played": 3, "won": 1, "lost": 1, "drawn": 1},
        # 2 + 3 + 5 deals; won 1 + 2 + 2
        "deals": {"played": 10, "won": 5},
        "coats_won": 1, "coats_suffered": 0,
        # draw, win, loss
        "streak": -1, "best_streak": 1, "worst_streak": 1,
        "by_opponent": {"bot:easy": {"played": 2, "won": 1, "lost": 1, "drawn": 0},
                        "people": {"played": 1, "won": 0, "lost": 0, "drawn": 1}},
    }


def test_court_piece_coat_suffered_from_team_1() -> None:
    st = compute([(rec(*CP_COAT), 3)])["court-piece"].as_json()
    assert st["coats_suffered"] == 1 and st["coats_won"] == 0
    assert st["deals"] == {"played": 3, "won": 1}
    assert st["matches"] == {"played": 1, "won": 0, "lost": 1, "drawn": 0}
    assert st["by_opponent"] == {"unknown": {"played": 1, "won": 0, "lost": 1, "drawn": 0}}


# two-player, seed 16, target 2: one deal, seat 1 wins it with a court (scored 0-4)
TW_COURT = ("court-piece-2p", {"target": 2}, 16)
# seed 1, target 3: deal winners 0, 1, 1; seat 1 wins 3-1
TW_1 = ("court-piece-2p", {"target": 3}, 1)
# seed 2, target 3: deal winners 0, 0, 1, 1; seat 1 wins 3-2
TW_2 = ("court-piece-2p", {"target": 3}, 2)


@pytest.mark.parametrize("seat", [0, 1])
def test_two_player(seat: int) -> None:
    records = [rec(*TW_COURT, [human("x"), HARD]), rec(*TW_1, [human("x"), human("y")]),
               rec(*TW_2, [human("x"), HARD])]
    st = compute([(r, seat) for r in records])["court-piece-2p"].as_json()
    if seat == 1:
        assert st["matches"] == {"played": 3, "won": 3, "lost": 0, "drawn": 0}
        assert st["deals"] == {"played": 8, "won": 5}  # 1 + 2 + 2
        assert (st["courts_won"], st["courts_suffered"]) == (1, 0)
        assert (st["streak"], st["best_streak"], st["worst_streak"]) == (3, 3, 0)
        # seat 1's opponent is the human x in each record
        assert st["by_opponent"] == {"people": {"played": 3, "won": 3, "lost": 0, "drawn": 0}}
    else:
        assert st["matches"] == {"played": 3, "won": 0, "lost": 3, "drawn": 0}
        assert st["deals"] == {"played": 8, "won": 3}  # 0 + 1 + 2
        assert (st["courts_won"], st["courts_suffered"]) == (0, 1)
        assert (st["streak"], st["best_streak"], st["worst_streak"]) == (-3, 0, 3)
        assert st["by_opponent"] == {
            "bot:hard": {"played": 2, "won": 0, "lost": 2, "drawn": 0},
            "people": {"played": 1, "won": 0, "lost": 1, "drawn": 0}}
    assert "coats_won" not in st and "goats" not in st


# Goat, target 4.  seed 69: points 60-60 (eggs), then 23-97 (team 0 takes 4); team 0 is the goat
GT_EGGS = ("goat", {"target": 4}, 69)
# seed 2: 120-0, team 1 takes 6 and is the goat
GT_WIN = ("goat", {"target": 4}, 2)
# seed 1: 33-87 (2 to team 0), 36-84 (2 to team 0); team 0 is the goat with 4
GT_LOSS = ("goat", {"target": 4}, 1)


def test_goat_from_team_0() -> None:
    st = compute([(rec(*GT_EGGS), 2), (rec(*GT_WIN), 0), (rec(*GT_LOSS), 2)])["goat"].as_json()
    assert st == {
        "game": "goat",
        "matches": {"played": 3, "won": 1, "lost": 2, "drawn": 0},
        "deals": {"played": 5, "won": 1},  # the eggs deal is won by nobody
        "goats": 2, "goats_given": 1, "eggs": 1,
        "defeat_taken": 2.67,  # (4 + 0 + 4) / 3
        "defeat_given": 2.0,  # (0 + 6 + 0) / 3
        "streak": -1, "best_streak": 1, "worst_streak": 1,
        "by_opponent": {"unknown": {"played": 3, "won": 1, "lost": 2, "drawn": 0}},
    }


def test_goat_from_team_1() -> None:
    st = compute([(rec(*GT_EGGS), 1), (rec(*GT_LOSS), 3)])["goat"].as_json()
    assert st["matches"] == {"played": 2, "won": 2, "lost": 0, "drawn": 0}
    assert st["deals"] == {"played": 4, "won": 3}
    assert (st["goats"], st["goats_given"], st["eggs"]) == (0, 2, 1)
    assert (st["defeat_taken"], st["defeat_given"]) == (0.0, 4.0)
    assert (st["streak"], st["best_streak"]) == (2, 2)


def test_unfinished_record_counts_deals_only() -> None:
    r = random_record("court-piece-2p", {"target": 3}, seed=1, deals=2)
    st = compute([(r, 1)])["court-piece-2p"].as_json()
    assert st["matches"]["played"] == 0
    assert st["deals"] == {"played": 2, "won": 1}  # TW_1's first two deals: 0, 1
    assert st["streak"] == 0


def test_opponent_kinds() -> None:
    r = {"game": "court-piece", "seats": [human("a"), BOT, human("b"), HARD]}
    assert opponent_kind(r, 0) == "mixed"
    assert opponent_kind(r, 1) == "people"
    assert opponent_kind({"game": "goat"}, 0) == "unknown"


def test_bad_seat_is_a_record_error() -> None:
    with pytest.raises(RecordError, match="seat 2 is not a seat of court-piece-2p"):
        add_record({}, rec(*TW_1), 2)


# -- the command -----------------------------------------------------------------------------

def write(tmp_path: Path, name: str, r: dict[str, Any]) -> str:
    f = tmp_path / name
    f.write_text(json.dumps(r))
    return str(f)


def test_command_json_matches_module(tmp_path: Path) -> None:
    files = [write(tmp_path, "a.json", rec(*GT_EGGS)), write(tmp_path, "b.json", rec(*GT_WIN)),
             write(tmp_path, "c.json", rec(*TW_COURT))]
    out = run_taash("stats", *files, "--seat", "0", "--json")
    assert out.returncode == 0, out.stderr
    games = json.loads(out.stdout)["games"]
    assert [g["game"] for g in games] == ["court-piece-2p", "goat"]
    assert games[1]["matches"] == {"played": 2, "won": 1, "lost": 1, "drawn": 0}
    assert games[1]["eggs"] == 1 and games[0]["courts_suffered"] == 1


@pytest.mark.slow
def test_command_player_picks_the_seat(tmp_path: Path) -> None:
    a = write(tmp_path, "a.json", rec(*TW_1, [human("Asha", "p1"), human("Bilal", "p2")]))
    b = write(tmp_path, "b.json", rec(*TW_2, [human("Bilal", "p2"), human("Asha", "p1")]))
    out = run_taash("stats", a, b, "--player", "p1", "--json")
    assert out.returncode == 0, out.stderr
    (g,) = json.loads(out.stdout)["games"]
    # p1 is seat 0 (lost TW_1) then seat 1 (won TW_2)
    assert g["matches"] == {"played": 2, "won": 1, "lost": 1, "drawn": 0}
    assert (g["streak"], g["best_streak"], g["worst_streak"]) == (1, 1, 1)
    by_name = run_taash("stats", a, b, "--player", "Asha", "--json")
    assert json.loads(by_name.stdout) == json.loads(out.stdout)


@pytest.mark.slow
def test_command_table_and_errors(tmp_path: Path) -> None:
    a = write(tmp_path, "a.json", rec(*CP_COAT))
    out = run_taash("stats", a)
    assert out.returncode == 0, out.stderr
    assert "Court Piece" in out.stdout and "coats won" in out.stdout
    missing = run_taash("stats", a, "--player", "nobody")
    assert missing.returncode == 2
    assert missing.stderr.strip().splitlines() == [f"taash: {a}: no seat of player 'nobody' "
                                                   "in this record"]
    bad = tmp_path / "bad.json"
    bad.write_text("{")
    out = run_taash("stats", str(bad))
    assert out.returncode == 2 and "Traceback" not in out.stderr
    assert out.stderr.startswith("taash: malformed record: not JSON")
