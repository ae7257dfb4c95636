"""The core's contract beyond play: outcomes, deal slots, who is winning the trick, the
double-sar collector, the Goat trump-card check, hidden records and Goat trick events."""

from __future__ import annotations

import random

import pytest

from taash.games import (
    CLASSES,
    Collector,
    CourtPiece,
    CourtPiece2P,
    DealSlots,
    Goat,
    OptionError,
    Outcome,
    RecordError,
    collect_step,
    game_class,
    new_match,
    trick_winner,
)
from taash.games import goat as goat_rules
from taash.games.tricks import ACE, PACK, TRUMP_BASE
from tests.games.helpers import random_states

ALL = [("court-piece", {"sar": "single"}), ("court-piece", {"sar": "double", "ace_rule": True}),
       ("court-piece", {"sar": "double"}), ("court-piece-2p", None), ("goat", None)]


def _play_out(game: str, options: object, seed: int, one_deal: bool = False):
    """Random play to the end of the match (or of its first deal)."""
    rng = random.Random(seed)
    m = game_class(game).new_match(options, rng=rng, deal=not one_deal)
    if one_deal:
        m.deal_from(rng)
    for _ in range(20000):
        if m.is_over() or m.needs_deal():
            break
        choices = [(s, a) for s in m.actors() for a in m.legal_ids(s)]
        s, a = rng.choice(choices)
        m.apply(s, m.action_text(a))
    return m


def test_game_classes_and_new_match() -> None:
    for gid, cls in CLASSES.items():
        assert cls.game_id == gid and game_class(gid) is cls
        m = new_match(gid, seed=1, first_seat=1)
        assert m.game_id == gid and m.record()[cls.first_seat_key] == 1
    with pytest.raises(RecordError, match="unknown game"):
        game_class("bridge")


@pytest.mark.parametrize(("game", "options", "reason"), [
    ("court-piece", {"session_end": {"coats": 1}}, "CP-11"),
    ("court-piece", {"session_end": {"deals": 2}}, "CP-11"),
    ("court-piece-2p", {"target": 3}, "TW-6"),
    ("goat", {"target": 4}, "GT-12"),
])
def test_outcome_names_the_winner(game: str, options: dict[str, object], reason: str) -> None:
    for seed in range(6):
        m = _play_out(game, options, seed)
        assert m.is_over()
        o = m.outcome()
        assert isinstance(o, Outcome) and o.reason == reason
        match = m.summary()["match"]
        if game == "goat":
            assert o.winner == 1 - match["loser"] and not o.draw
        elif match["winner"] == "draw":
            assert o.winner is None and o.draw
        else:
            assert o.winner == match["winner"] and not o.draw
    assert new_match(game, options, seed=1).outcome() is None


def test_outcome_draw_after_level_deals() -> None:
    m = CourtPiece.new_match({"session_end": {"deals": 2}}, first_dealer=0)
    m._over, m._winner = True, "draw"
    assert m.outcome() == Outcome(None, True, "CP-11")


@pytest.mark.parametrize(("game", "options"), ALL)
def test_deal_slots_deal_each_hand(game: str, options: object) -> None:
    """The slots say exactly which deck cards each seat holds once dealt (CP-3, TW-3, GT-3)."""
    for seed in range(5):
        cls = game_class(game)
        m = cls.new_match(options, seed=seed, deal=False)
        before = m.deal_slots()
        m.deal_from(random.Random(seed))
        slots = m.deal_slots()
        assert isinstance(slots, DealSlots) and before.trump_card is None
        assert slots.packets == before.packets and slots.stock == before.stock
        deck = [PACK.index(c) if game != "goat" else goat_rules.PACK.index(c)
                for c in m.record()["deals"][-1]["deck"]]
        if game == "goat":
            assert slots.stock == tuple(range(16, 36)) and slots.hand_size == 4
            assert slots.trump_card is not None
            assert deck[slots.trump_card] == m.trump_card
            for s in range(4):
                assert m.hands[s] == sum(1 << deck[p] for p in slots.positions(s))
            continue
        caller = m.caller
        assert caller >= 0
        for s in range(m.num_seats):
            first = slots.positions(s, before_call_only=True)
            assert m.hands[s] == sum(1 << deck[p] for p in first)
            assert len(first) == 5
        m.apply(caller, m.action_text(m.legal_ids(caller)[0]))
        for s in range(m.num_seats):
            assert m.hands[s] == sum(1 << deck[p] for p in slots.positions(s))
            assert len(slots.positions(s)) == slots.hand_size == 13
        assert slots.out_of_play == (tuple(range(26, 52)) if game == "court-piece-2p" else ())
        used = {p for pk in slots.packets for p in range(pk.start, pk.stop)}
        assert used | set(slots.out_of_play) == set(range(52))


def test_deal_slots_between_deals_are_the_next_deals() -> None:
    m = _play_out("court-piece", {"session_end": None}, 3, one_deal=True)
    assert m.needs_deal()
    slots = m.deal_slots()
    m.deal_from(random.Random(9))
    assert m.deal_slots() == slots
    g = _play_out("goat", None, 3, one_deal=True)
    assert g.needs_deal() and g.deal_slots().trump_card is None
    assert g.deal_slots().packets[0].seat == (g.next_dealer + 1) % 4


@pytest.mark.parametrize(("game", "options"), ALL)
def test_winning_is_the_seat_the_trick_would_go_to(game: str, options: object) -> None:
    for seed in range(3):
        for st in random_states(game, options, seed, max_steps=400):
            v = st.public_view()
            assert v["winning"] == st.view(0)["winning"]
            if not v["trick"]:
                assert v["winning"] is None
                continue
            if game == "goat":
                plays = [(p["seat"], goat_rules.VERBS.index(p["verb"]), 0) for p in v["trick"]]
                assert v["winning"] == goat_rules.trick_winner(plays) == v["top_seat"]
            else:
                cards = [PACK.index(p["card"]) for p in v["trick"]]
                i = trick_winner(cards, "SHDC".index(v["trump"]))
                assert v["winning"] == v["trick"][i]["seat"]
            # whoever is shown as winning does win if no one else beats them: check at trick end
            before = st.tricks_played if game != "goat" else sum(st.tricks)
            if len(v["trick"]) == st.num_seats - 1 and game != "goat":
                clone = st.clone()
                seat = clone.turn()
                low = min(clone.legal_ids(seat))  # may or may not beat; check the engine agrees
                clone.apply_id(seat, low)
                w = clone.last_trick[2] if clone.tricks_played > before else None
                cards = [PACK.index(p["card"]) for p in v["trick"]] + [low]
                if w is not None:
                    assert w == (v["trick"][0]["seat"] + trick_winner(
                        cards, "SHDC".index(v["trump"]))) % st.num_seats


def test_collector_follows_the_engine_and_collect_step() -> None:
    """The view's collector and collect_step say the same as the engine's own counting."""
    for ace in (False, True):
        for seed in range(8):
            m = CourtPiece.new_match({"sar": "double", "ace_rule": ace, "session_end": None},
                                     seed=seed, deal=False)
            chain, rng = -1, random.Random(seed)
            m.deal_from(rng)
            for _ in range(60):
                if m.needs_deal():
                    break
                c = m.collector()
                assert isinstance(c, Collector)
                assert m.public_view()["collector"] == {"pile": c.pile, "seat": c.seat,
                                                        "last": c.last}
                assert c.seat == (chain if chain >= 0 else None)
                assert c.last == (m.tricks_played == 12)
                seat = m.turn()
                played = m.tricks_played
                won_before = list(m.won)
                pile_before = m.pile
                m.apply_id(seat, rng.choice(m.legal_ids(seat)))
                if m.tricks_played > played or m.needs_deal():
                    _, cards, winner = m.final_trick if m.needs_deal() else m.last_trick
                    best = cards[trick_winner(cards, m.trump)]
                    collects, chain = collect_step(chain, played + 1, winner, best, ace)
                    gained = sum(m.won) - sum(won_before)
                    assert gained == (pile_before + 1 if collects else 0)
                    if ace and best in ACE and played + 1 < 13:
                        assert not collects
    single = CourtPiece.new_match(seed=1)
    assert single.collector() is None and single.public_view()["collector"] is None


def test_goat_check_trump_card() -> None:
    deck = Goat.pack().full_deck()
    idx = [Goat.pack().index(c) for c in deck]
    assert Goat.check_trump_card(idx, "ac") == Goat.check_trump_card(deck, "AC") == 35
    with pytest.raises(RecordError, match=r"^d\.tc: 6S is not in the stock \(deck\[16:36\]\)$"):
        Goat.check_trump_card(idx, "6S", "d.tc")
    with pytest.raises(RecordError, match=r"^trump_card: 2S is not a card of this pack"):
        Goat.check_trump_card(idx, "2S")
    with pytest.raises(RecordError, match=r"^trump_card: not a card code"):
        Goat.check_trump_card(idx, "xx")


@pytest.mark.parametrize(("game", "options"), ALL)
def test_record_hide_current(game: str, options: object) -> None:
    for seed in range(3):
        for i, st in enumerate(random_states(game, options, seed, max_steps=300, deals=2)):
            if i % 7:
                continue
            full, hidden = st.record(), st.record(hide_current=True)
            if st.needs_deal() or st.is_over():
                assert hidden == full
                continue
            assert hidden["deals"][:-1] == full["deals"][:-1]
            cur, h = full["deals"][-1], hidden["deals"][-1]
            assert "deck" not in h and h["hidden"] is True
            assert list(h) == [k for k in cur if k != "deck"] + ["hidden"]
            assert h.get("trump_card") == cur.get("trump_card")
            for a, b in zip(cur["actions"], h["actions"], strict=True):
                if a["action"].startswith("pass:"):
                    assert b == {"seat": a["seat"], "action": "pass",
                                 "count": len(a["action"].split(","))}
                else:
                    assert a == b


def test_goat_trick_events_carry_leader_and_plays() -> None:
    for seed in range(4):
        rng = random.Random(seed)
        m = Goat.new_match(seed=seed)
        plays: list[dict[str, object]] = []
        for _ in range(3000):
            if m.is_over():
                break
            choices = [(s, a) for s in m.actors() for a in m.legal_ids(s)]
            s, a = rng.choice(choices)
            events = m.apply(s, m.action_text(a))
            act = events[0]
            if act["verb"] == "molodka":
                plays = []
            p = {"seat": s, "verb": act["verb"], "count": (a & goat_rules.CARDS).bit_count()}
            if act["verb"] != "pass":
                p["cards"] = act["action"].split(":")[1].split(",")
            plays.append(p)
            tricks = [e for e in events if e["type"] == "trick"]
            if tricks:
                (t,) = tricks
                assert t["plays"] == plays and t["leader"] == plays[0]["seat"]
                top = [q for q in plays if q["verb"] != "pass"][-1]
                assert t["winner"] == top["seat"]
                plays = []


def test_trump_call_ids_unchanged() -> None:
    """The additions leave the action ids as they were (bots and adapters rely on them)."""
    m = CourtPiece2P.new_match(seed=3, first_caller=0)
    assert m.legal_ids(0) == [TRUMP_BASE + s for s in range(4)]


def test_one_new_match_for_every_game() -> None:
    """MatchBase: the game's own first-seat keyword, or first_seat; other keywords refused."""
    assert CourtPiece.new_match(seed=1, first_dealer=2).first_seat == 2
    assert CourtPiece.new_match(seed=1, first_seat=3).first_seat == 3
    assert CourtPiece2P.new_match(seed=1, first_caller=1).first_seat == 1
    assert Goat.new_match(seed=1, first_dealer=1, first_seat=3).first_seat == 1
    with pytest.raises(TypeError, match="first_caller"):
        CourtPiece.new_match(seed=1, first_caller=1)
    with pytest.raises(OptionError, match=r"the first caller must be a seat 0\.\.1"):
        CourtPiece2P.new_match(first_seat=2)
    with pytest.raises(OptionError, match="unknown option 'sar' for goat"):
        Goat.new_match({"sar": "single"})
