"""Goat, or Kozel (RULES.md GT-1..GT-12): 36 cards, multi-card tricks beaten or passed face
down, the molodka out of turn, drawing back to four, defeat points, eggs and the goat.

The rules are in three modules: ``goat_rules`` (pure functions and tables), ``goat_play`` (the
match state and its fast path) and this one (action text, events, summaries, records and
views).  Everything is importable from here.

Action ids are ``verb << 36 | cards`` (a card bitmask); text is ``verb:card,card``.

>>> m = Goat.new_match(seed=5, first_dealer=0)
>>> m.actors()[0], m.view(1)["hand_counts"], m.view(1)["stock"]
(1, [4, 4, 4, 4], 20)
"""

from __future__ import annotations

from collections.abc import Sequence

from taash.cards import SUIT_NAMES, SUITS, bits
from taash.games.base import IllegalAction, Json, cards_mask, parse_action
from taash.games.goat_play import GoatPlay
from taash.games.goat_rules import (
    ACTION_VERBS,
    BEAT,
    BEATEN,
    CARDS,
    CHECKS,
    CODES,
    DEALT,
    DEFAULTS,
    LEAD,
    MOLODKA,
    OVER,
    PACK,
    PASS,
    PHASE_NAMES,
    PHASES,
    PLAY,
    POINTS,
    RANK_OF,
    SHIFT,
    STOCK,
    SUIT_MASK,
    SUIT_OF,
    VERB_NAMES,
    VERBS,
    WAIT,
    _record_action,
    action_text,
    beats,
    beats_all,
    defeat_points,
    is_molodka,
    plays_for,
    points,
    trick_winner,
)
from taash.games.types import (
    GoatActionEvent,
    GoatEvent,
    GoatLastTrick,
    GoatMatch,
    GoatPublicView,
    GoatSummary,
    GoatView,
)


class Goat(GoatPlay):
    """A whole Goat match: games until a team has ``target`` defeat points (GT-12).  The
    fast-path attributes search may read are listed on ``GoatPlay``."""

    __slots__ = ()

    # -- text at the edges -------------------------------------------------------------------
    def action_text(self, a: int) -> str:
        return action_text(a)

    def action_id(self, seat: int, action: str) -> int:
        p = parse_action(action)
        if self.phase == OVER:
            raise IllegalAction("GT-12", "the match is over", "match_over")
        if self.phase == WAIT:
            raise IllegalAction("GT-10", "the game is over; the next game has not begun",
                                "game_over")
        if not 0 <= seat < 4:
            raise IllegalAction("GT-7", f"there is no seat {seat}")
        if p.verb not in ACTION_VERBS:
            raise IllegalAction("GT-7", f"unknown action {p.verb!r}: use lead:, beat:, pass: "
                                "or molodka: with cards")
        verb = ACTION_VERBS[p.verb]
        if not p.cards:
            raise IllegalAction("GT-7", f"{p.verb} needs cards, like {p.verb}:9H")
        for c in p.cards:
            if not PACK.has(c):
                raise IllegalAction("GT-1", f"{c} is not in Goat's 36-card pack")
        cards = cards_mask(PACK, p.cards, "GT-7")
        hand = self.hands[seat]
        if verb == MOLODKA:
            self._check_molodka(seat, cards)
            return MOLODKA << SHIFT | cards
        if seat != self.to_move:
            raise IllegalAction("GT-7", f"it is seat {self.to_move}'s turn, not seat {seat}'s",
                                "not_your_turn", {"seat": self.to_move})
        missing = cards & ~hand
        if missing:
            raise IllegalAction("GT-7", f"you do not hold {PACK.join(missing)}", "not_held",
                                {"cards": PACK.join(missing)})
        if verb == LEAD:
            if self.plays:
                raise IllegalAction("GT-7", f"the trick is already led: beat or pass {self.k} "
                                    f"card{'s' if self.k > 1 else ''}", "already_led",
                                    {"n": self.k})
            if len({SUIT_OF[c] for c in bits(cards)}) > 1:
                raise IllegalAction("GT-7", "a lead must be cards of one suit", "lead_one_suit")
            return LEAD << SHIFT | cards
        if not self.plays:
            raise IllegalAction("GT-7", f"you lead this trick: {p.verb} is for answering a lead",
                                "you_lead")
        n = cards.bit_count()
        if n != self.k:
            raise IllegalAction("GT-7", f"play exactly {self.k} card{'s' if self.k > 1 else ''}, "
                                f"not {n}", "play_exactly", {"n": self.k, "m": n})
        if verb == BEAT and not beats_all(cards, self.top, self.trump):
            raise IllegalAction("GT-6", f"{PACK.join(cards)} does not beat "
                                f"{PACK.join(self.top)}: each card must beat its own card on top "
                                f"(same suit and higher, or a trump on a non-trump)",
                                "does_not_beat", {"cards": PACK.join(cards),
                                                  "top": PACK.join(self.top)})
        return verb << SHIFT | cards

    def _check_molodka(self, seat: int, cards: int) -> None:
        if cards.bit_count() != 4 or not is_molodka(cards):
            raise IllegalAction("GT-8", "a molodka is four cards of one suit", "molodka_four")
        if cards & ~self.hands[seat]:
            held = cards & ~self.hands[seat]
            if self.played >> seat & 1:
                raise IllegalAction("GT-8", "cards you have put into this trick do not count",
                                    "put_in_do_not_count")
            raise IllegalAction("GT-8", "you do not hold " + PACK.join(held), "not_held",
                                {"cards": PACK.join(held)})
        if self.molodka_done:
            raise IllegalAction("GT-8", "only one molodka per trick, and this trick has one",
                                "molodka_once")
        if self.played >> seat & 1:
            raise IllegalAction("GT-8", "you have already played in this trick",
                                "already_played")
        if not self.plays and seat == self.to_move:
            raise IllegalAction("GT-8", "you lead this trick: lead your four cards with lead:",
                                "molodka_lead")

    def legal_actions(self, seat: int) -> list[str]:
        return sorted(action_text(a) for a in self.legal_ids(seat))

    def apply(self, seat: int, action: str) -> list[GoatEvent]:
        """Apply a text action; returns public events (passes face down)."""
        a = self.action_id(seat, action)
        games = len(self._past)
        tricks = sum(self.tricks)
        plays = self.plays  # the trick's plays, if this action completes it
        self.apply_id(seat, a)
        verb = a >> SHIFT
        ev: GoatActionEvent = {"type": "action", "seat": seat, "verb": VERB_NAMES[verb - 1],
                               "deal": games}
        if verb == PASS:
            ev["count"] = (a & CARDS).bit_count()
        else:
            ev["action"] = action_text(a)
        events: list[GoatEvent] = [ev]
        if len(self._past) > games or sum(self.tricks) > tricks:
            events.append({"type": "trick", "winner": trick_winner(plays),
                           "leader": plays[0][0], "plays": plays_for(plays, None)})
        if len(self._past) > games:
            events.append({"type": "deal_over", "deal": games, **self._results[-1]})
            if self.phase == OVER:
                events.append({"type": "match_over", **self.match_summary()})
        return events

    # -- summaries, records, views -----------------------------------------------------------
    def match_summary(self) -> GoatMatch:
        return {"over": self._over, "loser": self._loser, "defeat": list(self.defeat)}

    def summary(self) -> GoatSummary:
        deals = list(self._results)
        if self.phase == PLAY:
            deals.append({"dealer": self.dealer, "trump": SUITS[self.trump], "complete": False,
                          "trump_card": CODES[self.trump_card], "leader": self.game_leader,
                          "points": None, "eggs": None, "defeat": None})
        return {"game": "goat", "deals": deals, "match": self.match_summary()}

    def record(self, hide_current: bool = False) -> dict[str, Json]:
        """The match's taash-record/1.  With ``hide_current`` a game still in progress appears
        without its deck, its face-down passes as counts, and ``"hidden": true``."""
        def one(deck: list[int], tc: int, log: Sequence[tuple[int, int]]) -> dict[str, Json]:
            return {"deck": [CODES[c] for c in deck], "trump_card": CODES[tc],
                    "actions": [{"seat": s, "action": action_text(a)} for s, a in log]}
        deals = [one(*p) for p in self._past]
        if self.phase == PLAY and hide_current:
            deals.append({"trump_card": CODES[self.trump_card],
                          "actions": [_record_action(s, a, True) for s, a in self._log],
                          "hidden": True})
        elif self.phase == PLAY:
            deals.append(one(self.deck, self.trump_card, self._log))
        return {"format": "taash-record/1", "game": "goat", "options": dict(self.options),
                "first_dealer": self.first_seat, "deals": deals}

    def _view(self, seat: int | None) -> GoatPublicView:
        playing = self.phase == PLAY
        last: GoatLastTrick | None = None
        if self.last_trick is not None and playing:
            w, plays = self.last_trick
            last = {"winner": w, "plays": plays_for(plays, seat)}
        summ = self.summary()
        return {
            "game": "goat", "options": dict(self.options), "seats": 4,
            "phase": PHASES[self.phase - 1], "deal_number": len(self._past),
            "dealer": self.dealer if playing else None,
            "trump": SUITS[self.trump] if playing else None,
            "trump_card": CODES[self.trump_card] if playing else None,
            "to_move": self.to_move if playing else None,
            "actors": [self.to_move] if playing else [],
            "leader": self.lead_seat if playing else None,
            "k": self.k, "molodka_played": self.molodka_done,
            "trick": plays_for(self.plays, seat) if playing else [],
            "top": PACK.codes(self.top) if playing else [],
            "top_seat": self.top_seat if playing and self.plays else None,
            "winning": self.top_seat if playing and self.plays else None,
            "last_trick": last,
            "history": plays_for([(s, a >> SHIFT, a & CARDS) for s, a in self._log], seat)
            if playing else [],
            "stock": 36 - self.stock_pos if playing else 0,
            "hand_counts": [h.bit_count() for h in self.hands] if playing else [0] * 4,
            "tricks": list(self.tricks) if playing else [0, 0],
            "teams": [[0, 2], [1, 3]],
            "deals": summ["deals"], "match": summ["match"], "over": self._over,
        }

    def public_view(self) -> GoatPublicView:
        return self._view(None)

    def view(self, seat: int) -> GoatView:
        if not 0 <= seat < 4:
            raise ValueError(f"there is no seat {seat}")
        molodka = self.can_molodka(seat)
        v: GoatView = {**self._view(seat), "seat": seat,
                       "hand": PACK.codes(self.hands[seat]) if self.phase == PLAY else [],
                       "legal_actions": self.legal_actions(seat), "can_molodka": molodka}
        if molodka and seat != self.to_move:
            v["actors"] = sorted({self.to_move, seat})
        return v


__all__ = ["Goat", "GoatPlay", "PACK", "beats", "beats_all", "points", "plays_for", "trick_winner",
           "action_text", "defeat_points", "is_molodka", "SUIT_NAMES", "SUIT_OF", "RANK_OF",
           "SUIT_MASK", "SHIFT", "CARDS", "LEAD", "BEAT", "PASS", "MOLODKA", "VERBS", "DEALT",
           "STOCK", "CODES", "POINTS", "BEATEN", "DEFAULTS", "CHECKS", "PLAY", "WAIT", "OVER",
           "PHASE_NAMES", "ACTION_VERBS"]
