"""The hard level's search parts: reading hands from play, the playouts, and the double-dummy
solver the single-sar benches measure with (its tests skip where ``endplay`` is missing)."""

from __future__ import annotations

import random
import re
import subprocess
import sys
from itertools import combinations
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from taash.bots import court as cp
from taash.bots import dd, hard, make_bot
from taash.bots.arena import ArenaConfig, arena_bot, board_match, hash_seed
from taash.bots.base import Bot
from taash.bots.court import best_of
from taash.bots.hard import cp_play_on, cp_rule_card, public_knowledge
from taash.bots.infer import CourtChain, CourtModel, most_held_chance
from taash.bots.sampling import CourtSampler
from taash.games import get_game, new_match
from taash.games.tricks import PACK, SUIT_OF

needs_dds = pytest.mark.skipif(not dd.available(), reason="the DDS library did not load")


def legal(hand: list[int], trick: list[int]) -> list[int]:
    if trick:
        follow = [c for c in hand if SUIT_OF[c] == SUIT_OF[trick[0]]]
        if follow:
            return follow
    return list(hand)


def minimax(hands: list[list[int]], trump: int, leader: int, trick: list[int], side: int) -> int:
    """Tricks ``side`` takes from here with best play by everyone (plain full search)."""
    mover = (leader + len(trick)) % 4
    if not trick and not hands[mover]:
        return 0
    best: int | None = None
    for c in legal(hands[mover], trick):
        hands[mover].remove(c)
        v = after(hands, trump, leader, [*trick, c], side)
        hands[mover].append(c)
        if best is None or (v > best if mover % 2 == side else v < best):
            best = v
    assert best is not None
    return best


def after(hands: list[list[int]], trump: int, leader: int, trick: list[int], side: int) -> int:
    if len(trick) < 4:
        return minimax(hands, trump, leader, trick, side)
    w = (leader + best_of(trick, trump)) % 4
    return int(w % 2 == side) + minimax(hands, trump, w, [], side)


@needs_dds
@settings(max_examples=60, deadline=None)
@given(st.randoms(use_true_random=False), st.integers(1, 2), st.integers(0, 3),
       st.integers(0, 3), st.integers(0, 3))
def test_double_dummy_matches_full_search(rng: random.Random, k: int, shown: int, leader: int,
                                          trump: int) -> None:
    """Every card's double-dummy value equals a plain minimax over the same position, with
    a trick in progress or not (small endings, so the plain search is quick)."""
    cards = rng.sample(range(52), 4 * k + 4)
    trick, pool = cards[:shown], cards[shown:]
    hands: list[list[int]] = [[] for _ in range(4)]
    for i in range(4):
        s = (leader + i) % 4
        n = k if i < shown else k + 1
        hands[s], pool = pool[:n], pool[n:]
    mover = (leader + shown) % 4
    masks = [sum(1 << c for c in h) for h in hands]
    got, nodes = dd.solve(masks, trump, leader, trick)
    assert nodes >= 0
    want = {}
    for c in legal(hands[mover], trick):
        hands[mover].remove(c)
        want[c] = after(hands, trump, leader, [*trick, c], mover % 2)
        hands[mover].append(c)
    assert got == want
    if not trick:
        best = max(want.values())
        if best:
            assert dd.reaches(masks, trump, leader, best)[0]
        if best < k + 1:
            assert not dd.reaches(masks, trump, leader, best + 1)[0]


SPADES3 = 0b111  # 2S 3S 4S
HEARTS3 = 0b111 << 13


@needs_dds
@pytest.mark.parametrize("hands,trump,leader,trick,why", [
    ([SPADES3, HEARTS3, HEARTS3 << 13, SPADES3 << 3], 5, 0, [], "trump"),
    ([SPADES3, HEARTS3, HEARTS3 << 13, SPADES3], 0, 0, [], "two places"),
    ([SPADES3, HEARTS3, HEARTS3 << 13, 0b11 << 39], 0, 0, [], "sizes"),
    ([SPADES3, HEARTS3, HEARTS3 << 13, SPADES3 << 3], 0, 0, [6], "sizes"),
    ([0b11, HEARTS3, HEARTS3 << 13, SPADES3 << 3], 0, 0, [0], "two places"),
    ([1 << 52, HEARTS3, HEARTS3 << 13, SPADES3 << 3], 0, 0, [], "out of range"),
])
def test_invalid_positions_are_refused_before_the_solver(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, hands: list[int],
        trump: int, leader: int, trick: list[int], why: str) -> None:
    """DDS writes dump.txt into the working directory on any error: a bad position is
    refused with a clear error first, and nothing is written."""
    monkeypatch.chdir(tmp_path)
    with pytest.raises(ValueError, match=why):
        dd.solve(hands, trump, leader, trick)
    assert list(tmp_path.iterdir()) == []
    good = [SPADES3, HEARTS3, HEARTS3 << 13, SPADES3 << 3]
    with pytest.raises(ValueError, match="target"):
        dd.check(good, 0, 0, [], 4)  # four tricks asked for, three left
    assert dd.solve(good, 0, 0, [])[0]  # the valid position next to them still solves
    assert list(tmp_path.iterdir()) == []


def test_most_held_chance_by_enumeration() -> None:
    rng = random.Random(3)
    for _ in range(20):
        cards = rng.sample(range(52), 9)
        counts = tuple(sum(1 for c in cards if SUIT_OF[c] == s) for s in range(4))
        for trump in range(4):
            hits = total = 0
            for five in combinations(cards, 5):
                ks = [sum(1 for c in five if SUIT_OF[c] == s) for s in range(4)]
                hits += ks[trump] == max(ks)
                total += 1
            assert most_held_chance(counts, trump) == pytest.approx(hits / total)  # type: ignore[arg-type]


def heuristic_positions(seed: int, plays: int) -> tuple[object, int, dict[str, object]]:
    m = new_match("court-piece", seed=seed, first_seat=0)
    bots = [make_bot("court-piece", "easy", seed=s) for s in range(4)]
    for _ in range(plays):
        s = m.actors()[0]
        m.apply(s, bots[s].act(m.view(s)))
    s = m.actors()[0]
    return m, s, m.view(s)


@pytest.mark.parametrize("seed", range(6))
def test_the_model_explains_rules_of_thumb_play_exactly(seed: int) -> None:
    """When the others really play by the rules of thumb, the real deal explains every one
    of their plays: factor 1, apart from the caller's trump factor."""
    m, _, view = heuristic_positions(seed, 17)
    assert view["phase"] == "play"
    sampler = CourtSampler(view)
    model = CourtModel(sampler.info, 0.1)
    real = m.hands  # type: ignore[attr-defined]
    for s in sampler.others:
        f = model.seat_factor(s, real[s])
        if s == sampler.info.caller:
            assert f > 0.1
        else:
            assert f == 1.0


def test_chain_keeps_every_constraint_and_carries_on() -> None:
    m, seat, view = heuristic_positions(4, 21)
    sampler = CourtSampler(view)
    info = sampler.info
    rng = random.Random(1)
    chain = CourtChain(sampler, 0.05, rng, burn=200, thin=10)
    assert chain.ok
    for _ in range(20):
        hands = chain.next(rng)
        assert hands[seat] == info.hand
        for s in sampler.others:
            assert hands[s].bit_count() == info.hand_counts[s]
            for c in range(52):
                if hands[s] >> c & 1:
                    assert not info.voids[s] >> SUIT_OF[c] & 1
        union = 0
        for s in range(4):
            assert union & hands[s] == 0
            union |= hands[s]
        assert union == sum(1 << c for c in sampler.unknown) | info.hand
    # Two more plays, then the next decision starts from where this chain ended.
    for _ in range(2):
        s = m.actors()[0]  # type: ignore[attr-defined]
        m.apply(s, make_bot("court-piece", "easy").act(m.view(s)))  # type: ignore[attr-defined]
    later = CourtSampler(m.view(seat))  # type: ignore[attr-defined]
    again = CourtChain(later, 0.05, rng, burn=0, thin=1, start=chain.hands)
    assert again.ok
    carried = again.carry(chain.hands, rng)
    assert carried is not None  # the earlier sample fits the later view once repaired
    for p in later.others:
        assert carried[p].bit_count() == later.info.hand_counts[p]
        assert not any(carried[p] >> c & 1 and later.info.voids[p] >> SUIT_OF[c] & 1
                       for c in range(52))


def one_deal(sar: str, seed: int) -> Any:
    """A match of one shuffled deal (no next deal follows it)."""
    deck = PACK.full_deck()
    random.Random(seed).shuffle(deck)
    m = get_game("court-piece").new_match({"sar": sar}, deal=False, first_dealer=seed % 4)
    m.deal(deck)
    return m


@pytest.mark.parametrize("sar", ["single", "double"])
def test_search_models_the_rules_of_thumb_exactly(sar: str) -> None:
    """The search's model of a rules-of-thumb player (``cp_rule_card``: the seat's card from
    the state, knowing only the public play and its own hand) plays what the real heuristic
    bot plays from its view, at every turn of whole deals: the playouts predict such players
    as they really play."""
    checked = 0
    for seed in range(12):
        m = one_deal(sar, seed)
        bots = [make_bot("court-piece", "easy", seed=s) for s in range(4)]
        while not (m.needs_deal() or m.is_over()):
            s = m.actors()[0]
            view = m.view(s)
            action = bots[s].act(view)
            if view["phase"] == "play":
                played, voids, leads = public_knowledge(CourtSampler(view).info)
                card = cp_rule_card(m.clone(), played, voids[:], leads)
                assert action == f"play:{PACK.code(card)}", (seed, view["history"])
                checked += 1
            m.apply(s, action)
    assert checked > 12 * 4 * 7


def rules_of_thumb_to_the_end(m: Any, bots: list[Bot]) -> None:
    while not (m.needs_deal() or m.is_over()):
        s = m.actors()[0]
        m.apply(s, bots[s].act(m.view(s)))


@pytest.mark.parametrize("sar", ["single", "double"])
def test_a_candidate_is_played_on_as_the_rules_of_thumb_would(sar: str) -> None:
    """Every candidate card of a search, played on by ``cp_play_on``, ends the deal exactly
    as the real heuristic bots would after that card: for the later seats the card counts as
    played, its suit as led and, when it does not follow, its seat as void in the led suit
    (playouts that forgot the card let them think it still out)."""
    checked = 0
    for seed in range(6):
        m = one_deal(sar, seed)
        bots = [make_bot("court-piece", "easy", seed=s) for s in range(4)]
        while not (m.needs_deal() or m.is_over()):
            s = m.actors()[0]
            view = m.view(s)
            if view["phase"] == "play" and len(view["legal_actions"]) > 1:
                played, voids, leads = public_knowledge(CourtSampler(view).info)
                for action in view["legal_actions"]:
                    card = PACK.index(action.partition(":")[2])
                    ours = m.clone()
                    cp_play_on(ours, card, played, voids, leads)
                    theirs = m.clone()
                    theirs.apply(s, action)
                    rules_of_thumb_to_the_end(theirs, bots)
                    assert ours.record() == theirs.record(), (seed, action, view["history"])
                    checked += 1
            m.apply(s, bots[s].act(view))
    assert checked > 6 * 20


@pytest.mark.parametrize(("sar", "given", "want"), [
    ("single", None, hard.SINGLE_SAR_BUDGET_MS), ("double", None, hard.DEFAULT_BUDGET_MS),
    ("single", 50.0, 50.0), ("double", 50.0, 50.0)])
def test_court_play_searches_by_playouts_within_its_budget(
        monkeypatch: pytest.MonkeyPatch, sar: str, given: float | None, want: float) -> None:
    """Both sars search each candidate by rules-of-thumb playouts (the solver is never asked),
    with single sar's bigger default budget, and a budget given to the bot overrides it."""
    m = new_match("court-piece", {"sar": sar}, seed=3, first_seat=0)
    bots = [make_bot("court-piece", "easy", seed=s) for s in range(4)]
    view: dict[str, object] = {}
    while True:  # on to a play with three legal cards (the search then has a choice)
        s = m.actors()[0]
        view = m.view(s)
        if view["phase"] == "play" and len(view["legal_actions"]) >= 3:  # type: ignore[arg-type]
            break
        m.apply(s, bots[s].act(view))
    works: list[float] = []
    real_pimc = hard.pimc

    def pimc(ids: list[int], prior: int, sample: object, evaluate: object, work: float,
             cap_ms: float, min_samples: int = 2) -> int:
        works.append(work)
        assert cap_ms == max(4 * want, 200.0)
        return real_pimc(ids, prior, sample, evaluate, work, cap_ms,  # type: ignore[arg-type]
                         min_samples)

    def no_solver(*args: object) -> object:
        raise AssertionError("the solver was asked")

    monkeypatch.setattr(hard, "pimc", pimc)
    monkeypatch.setattr(dd, "solve", no_solver)
    action = hard.HardCourtBot("court-piece", seed=1, budget_ms=given).act(view)
    assert action in view["legal_actions"]  # type: ignore[operator]
    assert works == [want * hard.STEPS_PER_MS["court-piece"]]


def reading_shares(out: str) -> dict[str, float]:
    """The 'right' share of each stage line of ``court_decisions.py reading``'s report."""
    shares = {}
    for line in out.splitlines()[1:]:
        words = line.split()
        shares[words[0]] = float(words[words.index("right") + 1].rstrip("%"))
    return shares


@needs_dds
def test_reading_bench_finds_the_chain_reads_hands_better_than_uniform_deals(
        tmp_path: Path) -> None:
    """``bench/court_decisions.py``: positions collected from one board, then the hand-reading
    report for the posterior chain and for uniform deals; the chain puts more unseen cards in
    the right hand, and an unknown constant is refused with a clear message."""
    bench = Path(__file__).parents[2] / "bench" / "court_decisions.py"
    pos = tmp_path / "pos.jsonl"

    def run(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, str(bench), *args, "--jobs", "1"],
                              capture_output=True, text=True, timeout=300, check=False)

    got = run("collect", "--boards", "1", "--first", "3", "--out", str(pos))
    assert got.returncode == 0, got.stderr
    assert len(pos.read_text().splitlines()) >= 10
    chain = run("reading", str(pos), "--samples", "20")
    uniform = run("reading", str(pos), "--samples", "20", "--uniform")
    assert chain.returncode == uniform.returncode == 0, chain.stderr + uniform.stderr
    assert "settings default" in chain.stdout and "uniform deals" in uniform.stdout
    c, u = reading_shares(chain.stdout), reading_shares(uniform.stdout)
    assert c["all"] > u["all"] > 0
    bad = run("reading", str(pos), "--set", "NO_SUCH=1")
    assert bad.returncode != 0 and "NO_SUCH=1" in bad.stderr and "Traceback" not in bad.stderr


@needs_dds
def test_calls_bench_plays_on_only_where_the_trump_calls_differ() -> None:
    """``bench/court_decisions.py calls``: of boards 20-22 (the bench's seed), only board 21
    gets another trump call from ``hard`` than from the rules of thumb (checked here with the
    bots themselves), so the report counts one board and at most one win for each call."""
    bench = Path(__file__).parents[2] / "bench" / "court_decisions.py"
    cfg = ArenaConfig("court-piece", {}, "hard", "heuristic", 0, 99)
    differ = []
    for board in (20, 21, 22):
        m = board_match(cfg, board)
        caller = m.actors()[0]
        view = m.view(caller)
        mine = arena_bot("court-piece", "hard", hash_seed(99, board, caller, False), None)
        if mine.act(view) != cp.call_trump(view):
            differ.append(board)
    got = subprocess.run([sys.executable, str(bench), "calls", "--boards", "3", "--first", "20",
                          "--jobs", "1"], capture_output=True, text=True, timeout=300,
                         check=False)
    assert got.returncode == 0, got.stderr
    words = re.search(r"^(\d+) of 3 boards .* hard's call (\d), with the rules' call (\d)",
                      got.stdout)
    assert words, got.stdout
    assert int(words[1]) == len(differ) == 1
    assert int(words[2]) <= 1 and int(words[3]) <= 1
