"""taash.review.replay: the positions of a deal, stepping forward and back, tricks, the call,
Goat's passes turned up, the double-sar collections and the result."""

from __future__ import annotations

import copy
import random
from typing import Any

import pytest

from taash.games.base import RecordError
from taash.record import ReplayError, random_record, replay
from taash.review.replay import Cursor, DealReplay, load_record, replay_deal

GAMES = [("court-piece", None), ("court-piece", {"sar": "double", "ace_rule": True}),
         ("court-piece-2p", None), ("goat", None)]


def from_start(rec: dict[str, Any], deal: int, actions: int) -> Any:
    """The state after the first ``actions`` actions of deal ``deal``, by replaying a record
    cut there from the start (taash.record's own replay)."""
    cut = copy.deepcopy(rec)
    cut["deals"] = cut["deals"][:deal + 1]
    cut["deals"][deal]["actions"] = cut["deals"][deal]["actions"][:actions]
    return replay(cut)


def views(state: Any) -> list[Any]:
    return [state.public_view(), *(state.view(s) for s in range(state.num_seats))]


@pytest.mark.parametrize(("game", "options"), GAMES)
def test_stepping_forward_and_back_gives_the_positions_of_a_replay_from_the_start(
        game: str, options: Any) -> None:
    rec, summary = load_record(random_record(game, options, seed=11, deals=2, fair=True))
    d = replay_deal(rec, 1, summary)
    cur = Cursor(d)
    rng = random.Random(5)
    seen = set()
    for _ in range(60):
        move = rng.choice(["f", "f", "b", "t", "s"])
        if move == "f":
            pos = cur.forward()
        elif move == "b":
            pos = cur.back()
        elif move == "t":
            pos = cur.to_trick(rng.randrange(len(d.tricks) + 2))
        else:
            pos = cur.to_step(rng.randrange(len(d.positions)))
        seen.add(pos.step)
        assert pos.step == cur.at
        assert views(pos.state) == views(from_start(rec, 1, pos.step)), pos.step
        assert pos.view == pos.state.public_view()
        assert [list(h) for h in pos.hands] == [pos.state.view(s)["hand"]
                                               for s in range(d.num_seats)]
    assert len(seen) > 10


@pytest.mark.parametrize(("game", "options"), GAMES)
def test_tricks_cover_every_play_and_end_with_the_result(game: str, options: Any) -> None:
    for seed in range(6):
        rec, summary = load_record(random_record(game, options, seed=seed, deals=1))
        d = replay_deal(rec, 0, summary)
        assert d.complete and d.result == {**summary["deals"][0]}
        assert len(d.steps) == len(rec["deals"][0]["actions"])
        in_tricks = [i for t in d.tricks for i in t.steps]
        assert in_tricks == [s.index for s in d.steps if s.trick > 0]
        assert [t.number for t in d.tricks] == list(range(1, len(d.tricks) + 1))
        for t in d.tricks:
            assert all(p.cards for p in t.plays)
            assert t.plays[0].seat == t.leader or any(p.verb == "molodka" for p in t.plays)
            assert all(d.steps[i].trick == t.number for i in t.steps)
        if game == "goat":
            assert list(d.tricks[-1].points or ()) == d.result["points"]
            played = sorted(c for t in d.tricks for p in t.plays for c in p.cards)
            assert len(played) == 36 and len(set(played)) == 36
        else:
            assert list(d.tricks[-1].won) == d.result["tricks"]
            assert d.call is not None and d.call.seat == d.result["caller"]
            assert d.call.suit == d.result["trump"] and len(d.call.first_cards) == 5
            assert set(d.call.first_cards) <= set(d.dealt[d.call.seat])


def test_goat_passes_are_turned_up_from_the_record() -> None:
    rec, summary = load_record(random_record("goat", seed=3, deals=1))
    d = replay_deal(rec, 0, summary)
    passes = [p for t in d.tricks for p in t.plays if p.verb == "pass"]
    assert passes and all(p.face_down and p.cards for p in passes)
    texts = {a["action"] for a in rec["deals"][0]["actions"]}
    assert all("pass:" + ",".join(p.cards) in texts for p in passes)


def test_a_molodka_trick_keeps_the_plays_that_stand() -> None:
    for seed in range(200):
        rec, summary = load_record(random_record("goat", seed=seed, deals=1))
        d = replay_deal(rec, 0, summary)
        for t in d.tricks:
            if any(d.steps[i].verb == "molodka" for i in t.steps):
                assert len(t.plays) == 4 and len(t.steps) >= 4
                assert len({p.seat for p in t.plays}) == 4
                return
    pytest.fail("no molodka in 200 random Goat games")


def test_double_sar_collections_add_up_to_what_each_side_collected() -> None:
    rec, summary = load_record(random_record("court-piece", {"sar": "double"}, seed=8, deals=1))
    d = replay_deal(rec, 0, summary)
    assert all(t.collector is not None for t in d.tricks)
    per_side = [0, 0]
    for t in d.tricks:
        assert t.collected is not None
        per_side[d.side_of(t.winner)] += t.collected
    assert per_side == d.result["tricks"]
    assert d.tricks[0].collector == {"pile": 0, "seat": None, "last": False}


def test_an_unfinished_deal_replays_as_far_as_it_goes() -> None:
    rec = random_record("court-piece", seed=1, deals=1)
    rec["deals"][0]["actions"] = rec["deals"][0]["actions"][:10]
    rec, summary = load_record(rec)
    d = replay_deal(rec, 0, summary)
    assert not d.complete and len(d.positions) == 11 and len(d.tricks) == 2


def test_errors_are_those_of_record_verify() -> None:
    rec = random_record("court-piece-2p", seed=2, deals=1)
    with pytest.raises(RecordError):
        load_record("{not json")
    bad = copy.deepcopy(rec)
    bad["deals"][0]["actions"][3]["seat"] = 7
    with pytest.raises(RecordError, match=r"deals\[0\]\.actions\[3\]\.seat"):
        load_record(bad)
    illegal = copy.deepcopy(rec)
    illegal["deals"][0]["actions"][1]["seat"] = 1 - illegal["deals"][0]["actions"][1]["seat"]
    with pytest.raises(ReplayError):
        load_record(illegal)
    rec2, summary = load_record(rec)
    with pytest.raises(RecordError, match="the record has 1 deal"):
        replay_deal(rec2, 1, summary)


def test_a_deal_replay_is_read_only_data() -> None:
    rec, summary = load_record(random_record("goat", seed=1, deals=1))
    d = replay_deal(rec, 0, summary)
    assert isinstance(d, DealReplay)
    with pytest.raises(AttributeError):
        d.deal = 3  # type: ignore[misc]
