"""Trick play shared by both Court Piece games: action text, events, summaries, records and
views on top of ``tricks_play`` (the state and fast path, whose names are all importable from
here too).

Action ids: ``0..51`` play that card, ``52 + s`` call suit ``s`` (S H D C) trump.
"""

from __future__ import annotations

from taash.cards import SUIT_NAMES, SUITS, bits
from taash.games.base import IllegalAction, Json, cards_mask, parse_action
from taash.games.tricks_play import (
    ACE,
    ACTION_TEXT,
    CALL,
    CODES,
    OVER,
    PACK,
    PHASE_NAMES,
    PLAY,
    RANK_OF,
    SUIT_MASK,
    SUIT_OF,
    TRUMP_BASE,
    WAIT,
    TrickPlay,
    most_held,
    suit_counts,
    trick_winner,
)
from taash.games.types import (
    CourtDealHead,
    CourtLastTrick,
    CourtPublicHead,
    CourtSeatPart,
    SeatCard,
)


class TrickMatch(TrickPlay):
    """A whole match of a Court Piece game; subclasses give the rules that differ.  The
    fast-path attributes search may read are listed on ``TrickPlay``."""

    __slots__ = ()

    # -- text at the edges -------------------------------------------------------------------
    def action_text(self, a: int) -> str:
        return ACTION_TEXT[a]

    def action_id(self, seat: int, action: str) -> int:
        """The id of a legal action written as text; IllegalAction (or MalformedAction) says
        why it is not legal, naming the rule."""
        p = parse_action(action)
        if self.phase == OVER:
            raise IllegalAction(self._over_rule(), "the match is over", "match_over")
        if self.phase == WAIT:
            raise IllegalAction(self.play_rule, "the deal is over; the next deal has not begun",
                                "deal_over")
        if not 0 <= seat < self.num_seats:
            raise IllegalAction(self.play_rule, f"there is no seat {seat}")
        if p.verb == "trump":
            return self._trump_action(seat, p.arg)
        if p.verb == "play":
            return self._play_action(seat, p.cards)
        raise IllegalAction(self.play_rule, f"unknown action {p.verb!r}: use trump:S or play:AS")

    def _trump_action(self, seat: int, arg: str) -> int:
        if self.phase != CALL:
            raise IllegalAction(self.call_rule, "trump has already been called", "trump_called")
        if seat != self.caller:
            raise IllegalAction(self.call_rule, f"only the caller (seat {self.caller}) calls trump",
                                "only_caller", {"seat": self.caller})
        t = arg.strip().upper()
        if len(t) != 1 or t not in SUITS:
            raise IllegalAction(self.call_rule, f"{arg!r} is not a suit: use S, H, D or C")
        suit = SUITS.index(t)
        self._check_trump(suit)
        return TRUMP_BASE + suit

    def _play_action(self, seat: int, cards: tuple[str, ...]) -> int:
        rule = self.play_rule
        if self.phase == CALL:
            raise IllegalAction(self.call_rule,
                                f"trump must be called first, by seat {self.caller}",
                                "trump_first", {"seat": self.caller})
        if seat != self.to_move:
            raise IllegalAction(rule, f"it is seat {self.to_move}'s turn, not seat {seat}'s",
                                "not_your_turn", {"seat": self.to_move})
        if len(cards) != 1:
            if not cards:
                raise IllegalAction(rule, "play needs a card, like play:AS")
            m = cards_mask(PACK, cards, rule)
            raise IllegalAction(rule, f"play one card at a time, not {m.bit_count()}")
        card = cards_mask(PACK, cards, rule).bit_length() - 1
        hand = self.hands[seat]
        if not hand >> card & 1:
            raise IllegalAction(rule, f"you do not hold {CODES[card]}", "not_held",
                                {"cards": CODES[card]})
        if self.trick:
            led = SUIT_OF[self.trick[0]]
            if SUIT_OF[card] != led and hand & SUIT_MASK[led]:
                raise IllegalAction(rule, f"must follow suit: you hold {SUIT_NAMES[led]}",
                                    "must_follow", {"suit": SUITS[led]})
        return card

    def legal_actions(self, seat: int) -> list[str]:
        return sorted(ACTION_TEXT[a] for a in self.legal_ids(seat))

    def apply(self, seat: int, action: str) -> list[dict[str, Json]]:
        """Apply a text action; returns public events.  Raises and changes nothing if illegal."""
        a = self.action_id(seat, action)
        deal_no = len(self._past)
        tricks_before = self.tricks_played
        self.apply_id(seat, a)
        events: list[dict[str, Json]] = [{"type": "action", "seat": seat,
                                          "action": ACTION_TEXT[a], "deal": deal_no}]
        ended = len(self._past) > deal_no
        if ended or self.tricks_played > tricks_before:
            trick = self.final_trick if ended else self.last_trick
            assert trick is not None
            leader, cards, winner = trick
            events.append({"type": "trick", "winner": winner, "leader": leader,
                           "cards": [CODES[c] for c in cards]})
        if ended:
            events.append({"type": "deal_over", "deal": deal_no, **self._results[-1]})
            if self.phase == OVER:
                events.append({"type": "match_over", **self.match_summary()})
        return events

    # -- records, summaries, views -----------------------------------------------------------
    def _deal_fields(self) -> CourtDealHead:
        return {"dealer": self.dealer, "caller": self.caller,
                "trump": SUITS[self.trump] if self.trump >= 0 else None}

    def record(self, hide_current: bool = False) -> dict[str, Json]:
        """The match's taash-record/1.  With ``hide_current`` a deal still in progress appears
        without its deck and with ``"hidden": true`` (what spectators and catch-up may see)."""
        deals: list[dict[str, Json]] = [
            {"deck": [CODES[c] for c in deck],
             "actions": [{"seat": s, "action": ACTION_TEXT[a]} for s, a in log]}
            for deck, log in self._past]
        if self.phase in (CALL, PLAY):
            actions = [{"seat": s, "action": ACTION_TEXT[a]} for s, a in self._log]
            if hide_current:
                deals.append({"actions": actions, "hidden": True})
            else:
                deals.append({"deck": [CODES[c] for c in self.deck], "actions": actions})
        return {"format": "taash-record/1", "game": self.game_id, "options": dict(self.options),
                self.first_seat_key: self.first_seat, "deals": deals}

    def _public_head(self) -> CourtPublicHead:
        """The public view's fields both games share; each game's ``public_view`` adds its
        own, then ``deals``, ``match`` and ``over``."""
        n = self.num_seats
        trick: list[SeatCard] = [{"seat": (self.leader + i) % n, "card": CODES[c]}
                 for i, c in enumerate(self.trick)]
        last: CourtLastTrick | None = None
        if self.last_trick is not None:
            leader, cards, winner = self.last_trick
            last = {"winner": winner,
                    "cards": [{"seat": (leader + i) % n, "card": CODES[c]}
                              for i, c in enumerate(cards)]}
        return {
            "game": self.game_id, "options": dict(self.options), "seats": n,
            "phase": PHASE_NAMES[self.phase], "deal_number": len(self._past),
            "dealer": self.dealer if self.phase < WAIT else None,
            "caller": self.caller if self.phase < WAIT else None,
            "trump": SUITS[self.trump] if self.trump >= 0 and self.phase < WAIT else None,
            "to_move": self.to_move if self.phase < WAIT else None,
            "actors": self.actors(), "leader": self.leader if self.phase == PLAY else None,
            "trick": trick, "winning": self.best_seat if self.phase == PLAY and self.trick
            else None, "last_trick": last,
            "hand_counts": [h.bit_count() for h in self.hands] if self.phase < WAIT else [0] * n,
            "tricks_played": self.tricks_played, "tricks": list(self.won),
            "history": [{"seat": s, "action": ACTION_TEXT[a]} for s, a in self._log]
            if self.phase < WAIT else [],
        }

    def _seat_part(self, seat: int) -> CourtSeatPart:
        """What ``view(seat)`` adds to the public view: the hand, the legal actions and, for
        the caller before the call, the most-held suits."""
        if not 0 <= seat < self.num_seats:
            raise ValueError(f"there is no seat {seat}")
        hand = self.hands[seat] if self.phase < WAIT else 0
        part: CourtSeatPart = {"seat": seat, "hand": PACK.codes(hand),
                               "legal_actions": self.legal_actions(seat)}
        if self.phase == CALL and seat == self.caller:
            part["trump_hint"] = [SUITS[s] for s in most_held(hand)]
        return part


__all__ = ["PACK", "TrickMatch", "TrickPlay", "most_held", "suit_counts", "bits", "SUIT_OF",
           "RANK_OF", "SUIT_MASK", "TRUMP_BASE", "CODES", "ACTION_TEXT", "ACE", "CALL", "PLAY",
           "WAIT", "OVER", "PHASE_NAMES", "trick_winner"]
