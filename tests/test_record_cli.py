"""`taash record verify` and `taash record random` through the real command (RECORD.md)."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from taash.record import random_record, verify
from tests.conftest import CONFORMANCE, run_taash

BASE = json.loads((CONFORMANCE / "court-piece-single-win.json").read_text())["record"]
GOAT = json.loads((CONFORMANCE / "goat-match-end.json").read_text())["record"]


def verify_cli(rec: Any, tmp_path: Path) -> Any:
    f = tmp_path / "r.json"
    f.write_text(rec if isinstance(rec, str) else json.dumps(rec))
    return run_taash("record", "verify", str(f))


def assert_exit2(out: Any) -> None:
    assert out.returncode == 2, (out.returncode, out.stderr)
    assert out.stdout == ""
    lines = out.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in out.stderr, out.stderr


def mutate(rec: dict[str, Any], path: list[Any], value: Any) -> dict[str, Any]:
    r = copy.deepcopy(rec)
    node = r
    for k in path[:-1]:
        node = node[k]
    if value is KeyError:
        del node[path[-1]]
    else:
        node[path[-1]] = value
    return r


MALFORMED = [
    ("not json", "{deals: ["),
    ("not an object", "[1, 2]"),
    ("bad format", mutate(BASE, ["format"], "taash-record/2")),
    ("unknown game", mutate(BASE, ["game"], "bridge")),
    ("game missing", mutate(BASE, ["game"], KeyError)),
    ("unknown option", mutate(BASE, ["options", "target"], 5)),
    ("bad option value", mutate(BASE, ["options", "ace_rule"], "false")),
    ("float option", mutate(BASE, ["options", "session_end"], {"coats": 2.0})),
    ("first dealer missing", mutate(BASE, ["first_dealer"], KeyError)),
    ("first dealer bool", mutate(BASE, ["first_dealer"], True)),
    ("first dealer out of range", mutate(BASE, ["first_dealer"], 4)),
    ("deals not a list", mutate(BASE, ["deals"], {})),
    ("deck short", mutate(BASE, ["deals", 0, "deck"], BASE["deals"][0]["deck"][:51])),
    ("deck duplicate", mutate(BASE, ["deals", 0, "deck", 1], BASE["deals"][0]["deck"][0])),
    ("bad card in deck", mutate(BASE, ["deals", 0, "deck", 3], "1H")),
    ("seat out of range", mutate(BASE, ["deals", 0, "actions", 2, "seat"], 4)),
    ("seat is a string", mutate(BASE, ["deals", 0, "actions", 2, "seat"], "1")),
    ("action not a string", mutate(BASE, ["deals", 0, "actions", 2, "action"], 5)),
    ("bad card in action", mutate(BASE, ["deals", 0, "actions", 40, "action"], "play:ZZ")),
    ("empty piece", mutate(BASE, ["deals", 0, "actions", 3, "action"], "play:AS,")),
    ("actions missing", mutate(BASE, ["deals", 0, "actions"], KeyError)),
    ("goat trump card missing", mutate(GOAT, ["deals", 1, "trump_card"], KeyError)),
    ("goat trump card not in stock", mutate(GOAT, ["deals", 0, "trump_card"],
                                            GOAT["deals"][0]["deck"][2])),
    ("goat 2H in deck", mutate(GOAT, ["deals", 0, "deck", 0], "2H")),
    ("deal after an unfinished deal", mutate(BASE, ["deals", 0, "actions"],
                                            BASE["deals"][0]["actions"][:20])),
    ("nested too deeply to read", '{"game": "goat", "x": ' + "[" * 100_000 + "]" * 100_000 + "}"),
    ("empty deal after the match ended",
     mutate(GOAT, ["deals"], GOAT["deals"] + [{"deck": GOAT["deals"][0]["deck"],
                                               "trump_card": GOAT["deals"][0]["trump_card"],
                                               "actions": []}])),
]


@pytest.mark.parametrize(("why", "rec"), MALFORMED, ids=[m[0] for m in MALFORMED])
def test_malformed_records_exit_2_with_one_line(why: str, rec: Any, tmp_path: Path) -> None:
    assert_exit2(verify_cli(rec, tmp_path))


ILLEGAL = [
    ("unknown verb", ["deals", 0, "actions", 3, "action"], "lead:AS", 3),
    ("trump not a suit", ["deals", 0, "actions", 0, "action"], "trump:X", 0),
    ("empty play", ["deals", 0, "actions", 3, "action"], "play:", 3),
    ("wrong seat", ["deals", 0, "actions", 3, "seat"], 1, 3),
    ("a card of another pack", ["deals", 0, "actions", 3, "action"], "play:ZS", None),
]


@pytest.mark.parametrize(("why", "path", "value", "index"), ILLEGAL, ids=[i[0] for i in ILLEGAL])
def test_illegal_actions_exit_1_naming_deal_and_action(why: str, path: list[Any], value: Any,
                                                       index: int | None, tmp_path: Path) -> None:
    out = verify_cli(mutate(BASE, path, value), tmp_path)
    if index is None:  # ZS is not a card code at all: malformed
        assert_exit2(out)
        return
    assert out.returncode == 1 and out.stdout == "", out.stderr
    line = out.stderr.strip()
    assert "\n" not in line and line.startswith(f"deal 0, action {index}, seat ")
    assert " is illegal: " in line and line.endswith(")")


def test_action_after_the_match_end_is_illegal(tmp_path: Path) -> None:
    rec = copy.deepcopy(GOAT)
    first = rec["deals"][0]
    rec["deals"].append({"deck": first["deck"], "trump_card": first["trump_card"],
                         "actions": [{"seat": 0, "action": "lead:6H"}]})
    out = verify_cli(rec, tmp_path)
    assert out.returncode == 1
    assert out.stderr.startswith("deal 5, action 0, seat 0: lead:6H is illegal: the match is over")


def test_lenient_input_is_accepted(tmp_path: Path) -> None:
    rec = copy.deepcopy(BASE)
    for a in rec["deals"][0]["actions"]:
        verb, _, card = a["action"].partition(":")
        a["action"] = f" {verb.upper()} : {card.lower().replace('t', '10')} "
    out = verify_cli(rec, tmp_path)
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout) == verify(BASE)


def test_verify_reads_stdin_and_reports_missing_files() -> None:
    out = run_taash("record", "verify", "-", input=json.dumps(BASE))
    assert out.returncode == 0 and json.loads(out.stdout)["game"] == "court-piece"
    assert_exit2(run_taash("record", "verify", "/nonexistent/record.json"))


@pytest.mark.slow
@pytest.mark.parametrize(("game", "options"), [
    ("court-piece", '{"sar":"double","ace_rule":true}'), ("court-piece-2p", None),
    ("goat", '{"eggs":"double-next"}'),
])
def test_random_records_are_reproducible_and_verify(game: str, options: str | None,
                                                    tmp_path: Path) -> None:
    args = ["record", "random", "--game", game, "--seed", "17", "--deals", "2", "--legal"]
    if options:
        args += ["--options", options]
    a, b = run_taash(*args), run_taash(*args)
    assert a.returncode == 0, a.stderr
    assert a.stdout == b.stdout
    rec = json.loads(a.stdout)
    assert len(rec["deals"]) == 2
    n = 2 if game == "court-piece-2p" else 4
    for d in rec["deals"]:
        for act in d["actions"]:
            legal = act["legal"]
            assert sorted(legal) == [str(s) for s in range(n)]
            assert all(v == sorted(v) for v in legal.values())
            assert act["action"] in legal[str(act["seat"])]
    out = verify_cli(rec, tmp_path)
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout)["deals"][1]["complete"] is True


def test_random_without_deals_plays_the_match_to_its_end() -> None:
    rec = random_record("court-piece-2p", None, seed=3)
    assert verify(rec)["match"]["over"] is True
    assert random_record("goat", {"target": 2}, seed=3) == random_record("goat", {"target": 2},
                                                                         seed=3)


@pytest.mark.parametrize("args", [
    ["record", "random", "--game", "bridge"],
    ["record", "random", "--game", "goat", "--options", "{bad json"],
    ["record", "random", "--game", "goat", "--options", '{"eggs":"always"}'],
    ["record", "random", "--game", "goat", "--deals", "0"],
    ["record", "nonsense"],
])
def test_random_bad_input_exits_2(args: list[str]) -> None:
    out = run_taash(*args)
    assert out.returncode == 2 and "Traceback" not in out.stderr, out.stderr
