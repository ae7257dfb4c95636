"""A replayed deal as the page's review screen is sent it: plain JSON, every position's hands.

The page has no rules engine, so the server (``taash.server``) answers the steps that
``replay`` computes: every action, every position (each seat's hand, the cards on the table,
the tricks and Goat card points so far, the double-sar pile), the tricks with their winners,
the trump call with the caller's first five cards, Goat's face-down passes turned up and the
deal's result.  Only a finished deal is shaped here: its record already shows every card.

>>> from taash.record import random_record
>>> from taash.review.replay import load_record, replay_deal
>>> rec, summary = load_record(random_record("court-piece", seed=4, deals=1))
>>> out = deal_steps(replay_deal(rec, 0, summary))
>>> len(out["positions"]) == len(out["steps"]) + 1, out["call"]["first_cards"].__len__()
(True, 5)
"""

from __future__ import annotations

from taash.games.base import Json
from taash.review.replay import DealReplay, Position, Trick

JsonObject = dict[str, Json]


def deal_steps(d: DealReplay) -> JsonObject:
    """The review of one deal for the page (see the module's docstring)."""
    teams = d.positions[0].view.get("teams")
    return {
        "game": d.game, "deal": d.deal, "num_deals": d.num_deals, "seats": d.num_seats,
        "options": dict(d.options), "teams": teams, "complete": d.complete,
        "trump": d.result.get("trump"), "trump_card": d.trump_card,
        "dealer": d.result.get("dealer"),
        "call": None if d.call is None else {"seat": d.call.seat, "suit": d.call.suit,
                                             "first_cards": list(d.call.first_cards)},
        "dealt": [list(h) for h in d.dealt],
        "steps": [{"step": s.index, "seat": s.seat, "action": s.action, "verb": s.verb,
                   "cards": list(s.cards), "trick": s.trick} for s in d.steps],
        "tricks": [_trick(t) for t in d.tricks],
        "positions": [_position(d, p) for p in d.positions],
        "result": dict(d.result),
        "match": None if d.outcome is None else {"winner": d.outcome.winner,
                                                 "draw": d.outcome.draw,
                                                 "reason": d.outcome.reason},
    }


def _trick(t: Trick) -> JsonObject:
    out: JsonObject = {
        "trick": t.number, "leader": t.leader, "winner": t.winner, "steps": list(t.steps),
        "plays": [{"seat": p.seat, "verb": p.verb, "cards": list(p.cards),
                   "face_down": p.face_down} for p in t.plays],
        "won": list(t.won)}
    if t.collector is not None:
        out["collector"] = dict(t.collector)
        out["collected"] = t.collected
    if t.points is not None:
        out["points"] = list(t.points)
    return out


def _position(d: DealReplay, p: Position) -> JsonObject:
    """A position: the hands, and on the table the trick being played (its steps so far) or,
    right after a trick is won, that trick with its winner."""
    table: list[JsonObject] = []
    winner = None
    trick_no = p.tricks_done + 1
    just_won = (p.tricks_done and p.step > 0
                and d.steps[p.step - 1].trick == p.tricks_done)
    if just_won:
        t = d.tricks[p.tricks_done - 1]
        trick_no, winner = t.number, t.winner
        table = [{"step": i, "seat": d.steps[i].seat, "verb": d.steps[i].verb,
                  "cards": list(d.steps[i].cards)} for i in t.steps]
    else:
        table = [{"step": s.index, "seat": s.seat, "verb": s.verb, "cards": list(s.cards)}
                 for s in d.steps[:p.step] if s.trick == trick_no]
    done = d.tricks[p.tricks_done - 1] if p.tricks_done else None
    v = p.view
    hands = [list(h) for h in p.hands]
    if p.step == len(d.steps) and p.step and not any(hands):
        # the deal ended early (7 tricks): the core deals no more hands, the cards not played
        # are the ones held before the last play, less it
        last = d.steps[-1]
        hands = [list(h) for h in d.positions[-2].hands]
        hands[last.seat] = [c for c in hands[last.seat] if c not in last.cards]
    return {
        "step": p.step, "hands": hands, "table": table,
        "trick": trick_no if table or trick_no <= len(d.tricks) else None,
        "winner": winner, "tricks_done": p.tricks_done,
        "won": list(done.won) if done is not None else [0, 0],
        "points": list(done.points) if done is not None and done.points is not None else None,
        "collector": v.get("collector"), "pile": v.get("pile"), "stock": v.get("stock"),
        "to_move": v.get("to_move"),
    }


__all__ = ["deal_steps"]
