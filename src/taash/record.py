"""taash-record/1 (RECORD.md): load and validate, replay, summarise, and play random records.

Everything a record can get wrong is found before any action is replayed (RecordError, exit 2
at the command line); an illegal action found by replay is a ReplayError naming the deal and
action index (exit 1).
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass

from taash import fair as fair_deals
from taash.games import Goat, MatchState, game_class
from taash.games.base import (
    IllegalAction,
    Json,
    MalformedAction,
    RecordError,
    check_deck,
    is_int,
    json_type,
    parse_action,
)

FORMAT = "taash-record/1"
MAX_RANDOM_DEALS = 400
NESTED = "not JSON: nested too deeply to read"


@dataclass(frozen=True)
class ReplayError(ValueError):
    """An illegal action in a record, with where it is."""

    deal: int
    action: int
    seat: int
    text: str
    error: IllegalAction

    def __str__(self) -> str:
        return (f"deal {self.deal}, action {self.action}, seat {self.seat}: {self.text} is "
                f"illegal: {self.error}")


def parse_json(text: str | bytes) -> Json:
    try:
        return json.loads(text)
    except (ValueError, UnicodeDecodeError) as e:
        raise RecordError(f"not JSON: {e}") from None
    except RecursionError:  # arrays in arrays a thousand deep: no record is
        raise RecordError(NESTED) from None


def validate(rec: object) -> dict[str, Json]:
    """Check a record's shape, game, options, decks, seats and card codes; returns it with its
    options filled in.  Raises RecordError saying what is wrong and where."""
    if not isinstance(rec, dict):
        raise RecordError(f"a record must be a JSON object, not {json_type(rec)}")
    if "format" in rec and rec["format"] != FORMAT:
        raise RecordError(f"format: must be {FORMAT!r}, not {rec['format']!r}")
    if "game" not in rec:
        raise RecordError("game: missing")
    cls = game_class(rec["game"])
    options = cls.check_options(rec.get("options"))
    key = cls.first_seat_key
    n = cls.num_seats
    if key not in rec:
        raise RecordError(f"{key}: missing")
    if not is_int(rec[key]) or not 0 <= rec[key] < n:
        raise RecordError(f"{key}: must be a seat 0..{n - 1}, not {json.dumps(rec[key])}")
    deals = rec.get("deals")
    if not isinstance(deals, list):
        raise RecordError("deals: missing or not a list" if deals is None
                          else f"deals: must be a list, not {json_type(deals)}")
    pack = cls.pack()
    for i, d in enumerate(deals):
        where = f"deals[{i}]"
        if not isinstance(d, dict):
            raise RecordError(f"{where}: must be an object, not {json_type(d)}")
        deck = check_deck(pack, d.get("deck"), f"{where}.deck")
        if cls.shows_trump_card:
            tc = d.get("trump_card")
            if not isinstance(tc, str):
                raise RecordError(f"{where}.trump_card: missing or not a card code")
            Goat.check_trump_card(deck, tc, f"{where}.trump_card")
        if "fair" in d:
            fair_deals.check_form(d["fair"], n, f"{where}.fair")
        actions = d.get("actions")
        if not isinstance(actions, list):
            raise RecordError(f"{where}.actions: missing or not a list" if actions is None
                              else f"{where}.actions: must be a list, not {json_type(actions)}")
        for j, a in enumerate(actions):
            aw = f"{where}.actions[{j}]"
            if not isinstance(a, dict):
                raise RecordError(f"{aw}: must be an object, not {json_type(a)}")
            seat = a.get("seat")
            if not is_int(seat) or not 0 <= seat < n:
                raise RecordError(f"{aw}.seat: must be a seat 0..{n - 1}, not "
                                  f"{json.dumps(seat)}")
            text = a.get("action")
            if not isinstance(text, str):
                raise RecordError(f"{aw}.action: must be a string, not {json_type(text)}")
            try:
                parse_action(text)
            except MalformedAction as e:
                raise RecordError(f"{aw}.action: {e}") from None
    return {**rec, "options": options}


def replay(rec: dict[str, Json]) -> MatchState:
    """Replay a validated record; returns the match state.  Raises ReplayError on the first
    illegal action, RecordError when a deal follows one that stopped early or when a deal with
    no actions is listed after the match has ended."""
    cls = game_class(rec["game"])
    state = cls(rec["options"], rec[cls.first_seat_key], None)
    deals = rec["deals"]
    for i, d in enumerate(deals):
        if state.is_over():
            _after_end(deals, i)
            if d["actions"]:
                a = d["actions"][0]
                raise ReplayError(i, 0, a["seat"], a["action"],
                                  IllegalAction(state.over_rule(), "the match is over"))
        if not state.needs_deal():
            raise RecordError(f"deals[{i}]: follows deals[{i - 1}], whose actions stop before "
                              "that deal ends")
        state.deal(d["deck"], d.get("trump_card"))
        for j, a in enumerate(d["actions"]):
            try:
                state.apply(a["seat"], a["action"])
            except IllegalAction as e:
                if state.is_over():
                    _after_end(deals, i + 1)
                raise ReplayError(i, j, a["seat"], a["action"], e) from None
    return state


def _after_end(deals: list[dict[str, Json]], start: int) -> None:
    for k in range(start, len(deals)):
        if not deals[k]["actions"]:
            raise RecordError(f"deals[{k}]: a deal with no actions, listed after the match "
                              "has ended")


def load(source: str | bytes | dict[str, Json]) -> dict[str, Json]:
    """Parse (if text) and validate a record."""
    rec = parse_json(source) if isinstance(source, str | bytes) else source
    return validate(rec)


def verify(source: str | bytes | dict[str, Json]) -> dict[str, Json]:
    """The summary of a record after checking every action (RecordError / ReplayError), then
    every fair deal's proof (NotFair); each deal's summary says ``"fair"``: true or null."""
    rec = load(source)
    state = replay(rec)
    summary: dict[str, Json] = dict(state.summary())
    fair_deals.check_record(rec, summary)
    return summary


def random_record(game: str, options: object = None, seed: int | None = None,
                  deals: int | None = None, legal: bool = False,
                  fair: bool = False) -> dict[str, Json]:
    """A match (or its first ``deals`` deals) with every action drawn uniformly from the legal
    actions of every seat that may act.  The same seed gives the same record.  With ``fair``
    every deal carries a ``fair`` object (secret and seeds drawn from the seed) and its deck
    follows from it (taash-shuffle/1)."""
    cls = game_class(game)
    rng = random.Random(seed)
    state = cls.new_match(options, rng=rng, deal=False)
    limit = MAX_RANDOM_DEALS if deals is None else deals
    legal_maps: list[list[dict[str, list[str]]]] = []
    n = cls.num_seats
    played = 0
    proofs: list[dict[str, Json]] = []
    while played < limit and state.needs_deal():
        if fair:
            proofs.append(fair_deals.offline(rng, n))
            p = proofs[-1]
            state.deal(*fair_deals.derive(game, p["table"], played, p["seeds"], p["secret"]))
        else:
            state.deal_from(rng)
        maps: list[dict[str, list[str]]] = []
        legal_maps.append(maps)
        while not state.needs_deal() and not state.is_over():
            if legal:
                maps.append({str(s): state.legal_actions(s) for s in range(n)})
            choices = [(s, a) for s in state.actors() for a in state.legal_ids(s)]
            seat, a = rng.choice(choices)
            state.apply_id(seat, a)
        played += 1
    rec: dict[str, Json] = state.record()
    if legal:
        for d, maps in zip(rec["deals"], legal_maps, strict=True):
            for a, m in zip(d["actions"], maps, strict=True):
                a["legal"] = m
    if fair:
        for d, p in zip(rec["deals"], proofs, strict=True):
            d["fair"] = p
    return rec
