"""The hard level's search parts: reading hands from play, the playouts and the budget (the
double-dummy solver the benches measure with is tested in ``test_dd.py``)."""

from __future__ import annotations

import random
from itertools import combinations
from typing import Any

import pytest

from taash.bots import hard, make_bot
from taash.bots.base import Bot
from taash.bots.hard import cp_play_on, cp_rule_card, public_knowledge
from taash.bots.infer import CourtChain, CourtModel, most_held_chance
from taash.bots.pimc import Search, pimc, search
from taash.bots.sampling import CourtSampler
from taash.games import get_game, new_match
from taash.games.tricks import PACK, SUIT_OF


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


@pytest.mark.slow
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
    """Both sars search each candidate by rules-of-thumb playouts (``test_dd.py`` checks that
    no solver is within reach of the bots), with single sar's bigger default budget, and a
    budget given to the bot overrides it."""
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
    real_search = hard.search

    def search(ids: list[int], prior: int, sample: object, evaluate: object, work: float,
               cap_ms: float, min_samples: int = 2) -> Search:
        works.append(work)
        assert cap_ms == max(4 * want, 200.0)
        return real_search(ids, prior, sample, evaluate, work, cap_ms,  # type: ignore[arg-type]
                           min_samples)

    monkeypatch.setattr(hard, "search", search)
    action = hard.HardCourtBot("court-piece", seed=1, budget_ms=given).act(view)
    assert action in view["legal_actions"]  # type: ignore[operator]
    assert works == [want * hard.STEPS_PER_MS["court-piece"]]


def test_the_search_gives_every_candidates_score_and_the_same_choice() -> None:
    """``search`` is ``pimc`` with each candidate's mean score over its samples: the same
    samples give the same choice, and a candidate the race dropped has fewer samples."""
    def run(f: Any) -> Any:
        rng = random.Random(5)
        truth = {0: 0.2, 1: 0.8, 2: 0.45, 3: 0.1}

        def sample() -> tuple[int, float, float]:
            return rng.randrange(1000), 1.0, 10.0

        def evaluate(st: int, a: int) -> tuple[float, int]:
            return (1.0 if random.Random(st * 7 + a).random() < truth[a] else 0.0), 5

        return f([0, 1, 2, 3], 0, sample, evaluate, 4000.0, 10_000.0)

    found = run(search)
    assert isinstance(found, Search) and found.choice == run(pimc) == 1
    assert set(found.means) == {0, 1, 2, 3} and found.prior == 0
    assert found.samples[3] < found.samples[1]  # dropped early
    assert abs(found.means[1] - 0.8) < 0.15 and found.means[3] < 0.3


@pytest.mark.slow
@pytest.mark.parametrize("game", ["court-piece-2p", "goat"])
def test_the_hard_bot_keeps_its_last_search_for_the_review(game: str) -> None:
    m = new_match(game, None, seed=4, first_seat=0)
    easy = [make_bot(game, "easy", seed=s) for s in range(m.num_seats)]
    bot = make_bot(game, "hard", seed=2)
    searched = 0
    for _ in range(40):
        if m.is_over():
            break
        s = m.actors()[0]
        view = m.view(s)
        action = bot.act(view)
        scores = bot.last_scores()  # type: ignore[attr-defined]
        if scores is not None:
            searched += 1
            assert (action or "") in scores  # "": a molodka declined out of turn
            assert set(scores) - {""} <= set(view["legal_actions"])
            assert all(n > 0 for _, n in scores.values())
        m.apply(s, easy[s].act(view) or action)
    assert searched >= 3
