"""The guided first deal of each game (issue 49): one fixed deal, played by the rules core
once, written out as the seat-0 learner's views and the moves the lesson asks for.

The page replays it at the real table view (``web/learn.js``, a table source like offline
play's) without the rules core in the page: each step is a seat's move with the core's events
and the learner's view after it; at each of the learner's steps the page checks the learner's
move against the script, and a wrong one is answered with the core's own refusal (its rule
id and words, worked out here for every card or card set the learner could try) or, for a move
the rules allow but the lesson does not, with what the lesson asks.

The deals are chosen (``find_seed``) so that every lesson point happens: the trump call from
five cards, following suit, cutting with a trump, a trick won, a coat (Court Piece); a lead of
several cards, a beat, a pass face down, a molodka, the draw back to four, the points counted
(Goat).  ``python -m taash.learn DIR`` writes ``DIR/<game>.json``; the shipped files are
``web/learn/`` and a test checks that they are what this module makes.

    >>> s = script(CourtPiece.game_id)
    >>> s["steps"][0]["lesson"]["id"], s["steps"][0]["seat"]
    ('call', 0)
"""

from __future__ import annotations

import itertools
import json
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path

from taash.bots import Bot, make_bot
from taash.games import (
    CourtPiece,
    CourtPiece2P,
    Goat,
    IllegalAction,
    MalformedAction,
    MatchState,
    game_class,
)
from taash.games.base import Json
from taash.offline import illegal

LEARNER = 0
#: each game's deal: (seed, first seat), found by find_seed and fixed here
DEALS: dict[str, tuple[int, int]] = {
    CourtPiece.game_id: (194, 3),  # a coat, 7 tricks to none, for the learner's team
    CourtPiece2P.game_id: (0, 0),  # no court in 3,000 seeds: the lesson says what one is
    Goat.game_id: (131, 3),  # the learner holds a molodka in the fifth trick
}
#: what a deal must teach, by the kind of game (card sets: Goat)
WANTED_TRICKS = ("call", "follow", "cut", "trick_won", "coat|court|no_court")
WANTED_SETS = ("lead_set", "beat", "pass", "molodka", "trick_won", "draw", "points")
VERBS = ("lead", "beat", "pass", "molodka")


def first_seat_for(game: str) -> int:
    """The first seat that makes seat 0 call (Court Piece) or lead (Goat) the first deal."""
    cls = game_class(game)
    return 0 if cls.first_seat_key == "first_caller" else cls.num_seats - 1


def _suit(card: str) -> str:
    return card[-1]


def _cards(action: str) -> list[str]:
    arg = action.split(":", 1)[1] if ":" in action else ""
    return [c for c in arg.split(",") if c]


def key_of(action: str) -> str:
    """An action's key as the page makes it: the verb and the sorted cards."""
    verb = action.split(":", 1)[0]
    return f"{verb}:{','.join(sorted(_cards(action)))}"


class Learner:
    """The learner's moves: a bot's, steered where a lesson wants a move (a trump cut when
    void, several cards of a suit led, a molodka played when it can be)."""

    def __init__(self, game: str, seed: int) -> None:
        self.sets = game_class(game).plays_card_sets
        self.bot: Bot = make_bot(game, "easy", seed=seed)

    def act(self, view: Mapping[str, Json]) -> str | None:
        legal = [str(a) for a in view["legal_actions"]]
        if not legal:
            return None
        if self.sets:
            fours = [a for a in legal if a.startswith("molodka:")
                     or (a.startswith("lead:") and len(_cards(a)) == 4)]
            if fours:
                return fours[0]
            sets = [a for a in legal if a.startswith("lead:") and len(_cards(a)) >= 2]
            if sets:
                return max(sets, key=lambda a: len(_cards(a)))
        elif view["phase"] == "play" and view["trick"]:
            trump = view["trump"]
            led = _suit(str(view["trick"][0]["card"]))
            hand = [str(c) for c in view["hand"]]
            if trump and led != trump and not any(_suit(c) == led for c in hand):
                cuts = [a for a in legal if _suit(a) == trump]
                if cuts:
                    return cuts[-1]
        action = self.bot.act(view)
        return None if action is None else str(action)


def lesson_of(state: MatchState, action: str) -> dict[str, Json]:
    """What the learner's move teaches: a lesson id and what its sentence names."""
    v = state.view(LEARNER)
    verb = action.split(":", 1)[0]
    cards = _cards(action)
    if game_class(state.game_id).plays_card_sets:
        if verb == "molodka" or (verb == "lead" and len(cards) == 4):
            return {"id": "molodka", "suit": _suit(cards[0])}
        if verb == "lead":
            return {"id": "lead_set" if len(cards) > 1 else "lead_single", "n": len(cards)}
        return {"id": verb, "n": len(cards)}
    if verb == "trump":
        return {"id": "call", "suit": action[-1]}
    trick = v["trick"]
    assert isinstance(trick, list)
    if not trick:
        return {"id": "lead_first" if not v["tricks_played"] else "lead"}
    led = _suit(str(trick[0]["card"]))
    if _suit(cards[0]) == led:
        return {"id": "follow", "suit": led}
    if _suit(cards[0]) == v["trump"]:
        return {"id": "cut", "suit": led, "trump": v["trump"]}
    return {"id": "discard", "suit": led}


def refusals(state: MatchState, expected: str) -> dict[str, Json]:
    """The core's refusal of each move the learner could try here instead, by key_of."""
    v = state.view(LEARNER)
    hand = [str(c) for c in v["hand"]]
    tries: list[str] = []
    if game_class(state.game_id).plays_card_sets:
        for n in range(1, len(hand) + 1):
            for group in itertools.combinations(sorted(hand), n):
                tries += [f"{verb}:{','.join(group)}" for verb in VERBS]
    else:
        tries = [f"play:{c}" for c in sorted(hand)]
    out: dict[str, Json] = {}
    for act in tries:
        if key_of(act) == key_of(expected):
            continue
        try:
            state.clone().apply(LEARNER, act)
        except (IllegalAction, MalformedAction) as e:
            out[key_of(act)] = illegal(e)
    return out


def _quiet(view: Mapping[str, Json]) -> dict[str, Json]:
    """The last view: the lesson is over, nothing to do in the next deal."""
    return {**view, "legal_actions": [], "actors": [], "can_molodka": False}


def notes_after(events: Sequence[Mapping[str, Json]], seen: set[str],
                state: MatchState) -> list[dict[str, Json]]:
    """The lessons a move's events bring: the first trick won, the first draw, the deal's end."""
    out: list[dict[str, Json]] = []
    sets = game_class(state.game_id).plays_card_sets
    for e in events:
        if e["type"] == "trick" and "trick_won" not in seen:
            out.append({"id": "trick_won", "seat": e["winner"]})
        if e["type"] == "deal_over":
            if sets:
                out.append({"id": "points", "points": e["points"]})
            else:
                word = "court" if "court" in e else "coat"  # two-player Court Piece's (TW-5)
                won = bool(e.get(word))
                out.append({"id": word if won else f"no_{word}", "tricks": e["tricks"],
                            "winner": e["winner"]})
    if sets and out and out[0]["id"] == "trick_won" and not any(e["type"] == "deal_over"
                                                                 for e in events):
        out.append({"id": "draw"})
    return [n for n in out if n["id"] not in seen]


def script(game: str, seed: int | None = None, first: int | None = None) -> dict[str, Json]:
    """The guided deal of ``game`` (its fixed seed and first seat unless given)."""
    cls = game_class(game)
    if seed is None:
        seed, first = DEALS[cls.game_id]
    if first is None:
        first = first_seat_for(game)
    options = cls.check_options(None)
    state = cls.new_match(options, seed=seed, first_seat=first)
    bots: dict[int, Bot] = {s: make_bot(game, "easy", seed=seed + s)
                            for s in range(1, cls.num_seats)}
    learner = Learner(game, seed)
    steps: list[Json] = []
    seen: set[str] = set()
    start = dict(state.view(LEARNER))
    for _ in range(400):
        actors = state.actors()
        turn = state.turn()
        wants = learner.act(state.view(LEARNER)) if LEARNER in actors else None
        if wants is not None and (turn == LEARNER or wants.startswith("molodka:")):
            seat, action = LEARNER, wants
        else:
            seat = turn if turn is not None else actors[0]
            act = bots[seat].act(state.view(seat))
            assert act is not None
            action = str(act)
        step: dict[str, Json] = {"seat": seat, "action": action}
        if seat == LEARNER:
            lesson = lesson_of(state, action)
            step["lesson"] = lesson
            step["refusals"] = refusals(state, action)
            seen.add(str(lesson["id"]))
        events = [dict(e) for e in state.apply(seat, action)]
        notes = notes_after(events, seen, state)
        seen.update(str(n["id"]) for n in notes)
        over = any(e["type"] == "deal_over" for e in events)
        view = dict(state.view(LEARNER))
        step.update(events=events, view=_quiet(view) if over else view)
        if notes:
            step["notes"] = notes
        steps.append(step)
        if over:
            break
    return {"format": "taash-learn/1", "game": cls.game_id, "seed": seed, "first_seat": first,
            "options": options, "learner": LEARNER, "start": start, "steps": steps,
            "lessons": sorted(seen)}


def teaches(s: Mapping[str, Json]) -> bool:
    """Whether a script has every lesson its game needs (and the learner's side wins)."""
    sets = game_class(str(s["game"])).plays_card_sets
    wanted = WANTED_SETS if sets else WANTED_TRICKS
    have = set(s["lessons"])
    return all(any(one in have for one in w.split("|")) for w in wanted)


def find_seed(game: str, tries: int = 3000) -> int | None:
    """The first seed whose deal teaches every lesson."""
    for seed in range(tries):
        if teaches(script(game, seed, first_seat_for(game))):
            return seed
    return None


def write(out: Path) -> list[Path]:
    """Each game's script as ``out/<game>.json``."""
    out.mkdir(parents=True, exist_ok=True)
    paths = []
    for game in DEALS:
        path = out / f"{game}.json"
        path.write_text(json.dumps(script(game), separators=(",", ":"), sort_keys=True) + "\n",
                        encoding="utf-8")
        paths.append(path)
    return paths


if __name__ == "__main__":  # pragma: no cover - python -m taash.learn DIR [--find]
    if "--find" in sys.argv:
        for g in DEALS:
            print(g, find_seed(g))
    else:
        for p in write(Path(sys.argv[1] if len(sys.argv) > 1 else "src/taash/web/learn")):
            print(p)
