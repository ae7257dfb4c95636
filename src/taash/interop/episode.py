"""One deal of a game as a turn-based game with explicit chance, shared by the adapters.

OpenSpiel and PettingZoo both want one player to act at a time, integer actions from a fixed
range, and (for OpenSpiel) the deal as chance events.  ``Episode`` gives a core match that shape:

- **Chance.** The deck is dealt one card at a time (each outcome a card id, uniform over the
  cards left), then in Goat the shown trump card is drawn from the stock (GT-4).  Only then
  does the core deal; players see their cards from that point on.
- **Actions.** Court Piece: the core's ids (0..51 play a card, 52..55 call a suit).  Goat:
  ``verb * 16 + subset`` where verb is lead, beat, pass, molodka (0..3) and ``subset`` a
  non-empty set of positions in the mover's hand sorted low to high (at most four cards), so
  there are 64 card actions, plus ``DECLINE`` (64).
- **Goat's molodka out of turn.** Before the seat to move acts, each other seat that may play
  a molodka (in GT-8 order) is asked first and answers ``molodka`` or ``DECLINE``; a decline
  lasts until the next action.  In this model that a seat is asked is public: it shows the
  seat holds a molodka, which real play does not reveal.
- **Returns** (zero-sum, per player, at the end of the deal): Court Piece +1 / -1 to the
  winning / losing team, 2 for a coat; two-player Court Piece what the deal scored (1, 2 or
  4); Goat the defeat points the losers take (2, 4 or 6), eggs 0.
"""

from __future__ import annotations

from typing import Any

from taash.cards import bits
from taash.games import CLASSES, CourtPiece, CourtPiece2P, Goat, game_class
from taash.games.base import GameClass, Json
from taash.games.goat import CARDS, MOLODKA, PASS, SHIFT

CHANCE = -1
TERMINAL = -4
DECLINE = 64

# What the adapters declare of each game that its class does not say (one catalogue): the most
# decisions in one deal (a call and every card; in Goat at most 9 tricks of at most 7 plays,
# three, then a molodka and three answers, and three declines before each play) and the
# largest return of one deal (a coat 2, two-player's 4, Goat's 6 defeat points).
LIMITS = {CourtPiece.game_id: (53, 2.0), CourtPiece2P.game_id: (27, 4.0),
          Goat.game_id: (9 * 7 * 4, 6.0)}


def num_actions(cls: GameClass) -> int:
    """The adapter's action range: Goat's verb and subset ids and a decline, else the core's
    ids (a card of the pack, or a suit called)."""
    return DECLINE + 1 if cls.plays_card_sets else cls.pack().size + 4


NUM_ACTIONS = {g: num_actions(cls) for g, cls in CLASSES.items()}
MAX_CHANCE = {g: cls.pack().size for g, cls in CLASSES.items()}  # a card left in the deck
MAX_LENGTH = {g: n for g, (n, _) in LIMITS.items()}
UTILITY = {g: u for g, (_, u) in LIMITS.items()}


class Episode:
    """One deal of ``game_id`` from an empty deck to its result."""

    def __init__(self, game_id: str, options: object = None, first_seat: int = 0) -> None:
        self.game_id = game_id
        self.cls = game_class(game_id)
        self.options = self.cls.check_options(options)
        self.n: int = self.cls.num_seats
        self.first_seat = first_seat
        self.pack = self.cls.pack()
        # Goat's stock positions (GT-4: the shown trump card is one of their cards); () else.
        self.stock_slots: tuple[int, ...] = self.cls.new_match(
            self.options, deal=False, first_seat=first_seat).deal_slots().stock
        self.deck: list[int] = []
        self.trump_card = -1
        self.state: Any = None  # the fast-path fields of either game's state are read here
        self.declined = 0
        self.history: list[tuple[int, int]] = []  # (seat, core id or -1 for a decline)
        self.received: list[list[int]] = [[] for _ in range(self.n)]

    # -- copying and rebuilding -----------------------------------------------------------------
    def clone(self) -> Episode:
        new = object.__new__(Episode)
        new.__dict__.update(self.__dict__)
        new.deck = self.deck[:]
        new.state = None if self.state is None else self.state.clone()
        new.history = self.history[:]
        new.received = [r[:] for r in self.received]
        return new

    @classmethod
    def from_deal(cls, game_id: str, options: object, first_seat: int, deck: list[int],
                  trump_card: int, decisions: list[tuple[int, int]]) -> Episode:
        """An episode dealt from ``deck`` with ``decisions`` (core ids, -1 declines) replayed."""
        ep = cls(game_id, options, first_seat)
        for c in deck:
            ep.apply_chance(c)
        if ep.cls.shows_trump_card:
            ep.apply_chance(trump_card)
        for s, a in decisions:
            if a < 0:
                ep.declined |= 1 << s
                ep.history.append((s, -1))
            else:
                ep.apply_core(s, a)
        return ep

    # -- chance ---------------------------------------------------------------------------------
    def is_chance(self) -> bool:
        return self.state is None

    def chance_outcomes(self) -> list[tuple[int, float]]:
        if len(self.deck) < self.pack.size:
            used = 0
            for c in self.deck:
                used |= 1 << c
            left = [c for c in range(self.pack.size) if not used >> c & 1]
        else:  # Goat: the shown trump card, uniform over the stock
            left = sorted(self.deck[p] for p in self.stock_slots)
        p = 1.0 / len(left)
        return [(c, p) for c in left]

    def apply_chance(self, card: int) -> None:
        if len(self.deck) < self.pack.size:
            self.deck.append(card)
            if len(self.deck) < self.pack.size or self.cls.shows_trump_card:
                return
        else:
            self.trump_card = card
        st = self.cls.new_match(self.options, deal=False, first_seat=self.first_seat)
        codes = [self.pack.code(c) for c in self.deck]
        if self.cls.shows_trump_card:
            st.deal(codes, self.pack.code(self.trump_card))
        else:
            st.deal(codes)
        # Held untyped: the adapters read the state's fast-path fields (hands, trick, ...).
        self.state = st
        self.received = [[h] for h in self.state.hands]

    # -- turns ----------------------------------------------------------------------------------
    def is_terminal(self) -> bool:
        st = self.state
        return st is not None and bool(st.needs_deal() or st.is_over())

    def current_player(self) -> int:
        if self.state is None:
            return CHANCE
        if self.is_terminal():
            return TERMINAL
        return self.window_seat()

    def window_seat(self) -> int:
        """The seat asked now: a Goat molodka holder out of turn first, else the mover."""
        st = self.state
        mover: int = st.to_move
        if self.cls.plays_card_sets:  # the molodka, out of turn
            for s in st.actors():
                if s != mover and not self.declined >> s & 1:
                    return int(s)
        return mover

    def hand_order(self, seat: int) -> list[int]:
        return list(bits(self.state.hands[seat]))

    def encode(self, seat: int, core: int) -> int:
        if not self.cls.plays_card_sets:
            return core
        pos = {c: i for i, c in enumerate(self.hand_order(seat))}
        sub = 0
        for c in bits(core & CARDS):
            sub |= 1 << pos[c]
        return ((core >> SHIFT) - 1) * 16 + sub

    def decode(self, seat: int, action: int) -> int:
        """The core id of an adapter action (-1 for a decline)."""
        if not self.cls.plays_card_sets:
            return action
        if action == DECLINE:
            return -1
        order = self.hand_order(seat)
        m = 0
        for i in bits(action & 15):
            m |= 1 << order[i]
        return (action // 16 + 1) << SHIFT | m

    def legal_actions(self, seat: int) -> list[int]:
        """The adapter's legal actions of ``seat`` (empty unless it is asked now)."""
        if self.state is None or self.is_terminal() or seat != self.window_seat():
            return []
        st = self.state
        if not self.cls.plays_card_sets:
            return sorted(st.legal_ids(seat))
        if seat != st.to_move:
            return sorted([self.encode(seat, MOLODKA << SHIFT | st.hands[seat]), DECLINE])
        return sorted(self.encode(seat, a) for a in st.legal_ids(seat))

    def apply(self, seat: int, action: int) -> None:
        core = self.decode(seat, action)
        if core < 0:
            self.declined |= 1 << seat
            self.history.append((seat, -1))
            return
        self.apply_core(seat, core)

    def apply_core(self, seat: int, core: int) -> None:
        st = self.state
        before = st.hands[:]
        st.apply_id(seat, core)
        self.declined = 0
        self.history.append((seat, core))
        for s in range(self.n):
            new = st.hands[s] & ~before[s]
            if new:
                self.received[s].append(new)

    def action_text(self, seat: int, action: int) -> str:
        if self.state is None:
            return "deal:" + str(self.pack.code(action))
        core = self.decode(seat, action)
        return "decline" if core < 0 else str(self.state.action_text(core))

    # -- results --------------------------------------------------------------------------------
    def returns(self) -> list[float]:
        if not self.is_terminal():
            return [0.0] * self.n
        r = self.state.summary()["deals"][-1]
        if self.cls.deal_unit == "points":  # Goat: the defeat points the losers take
            d = r["defeat"]
            loser_pts = [float(d[s & 1]) for s in range(4)]
            return [loser_pts[s ^ 1] - loser_pts[s] for s in range(4)]
        if "scored" in r:  # two-player Court Piece: what the deal scored
            w = int(r["winner"])
            v = float(r["scored"][w])
            return [v if s == w else -v for s in range(2)]
        w = int(r["winner"])
        v = 2.0 if r["coat"] else 1.0
        return [v if s & 1 == w else -v for s in range(4)]

    # -- what a player knows ----------------------------------------------------------------------
    def view(self, seat: int) -> dict[str, Json] | None:
        return None if self.state is None else dict(self.state.view(seat))

    def info_string(self, seat: int) -> str:
        """Everything ``seat`` has seen, in order (perfect recall): the cards it received,
        and every action as it saw it (another seat's face-down pass shows only its count)."""
        if self.state is None:
            return f"p{seat} dealing {len(self.deck)}"
        parts = [f"p{seat}", "recv " + " ".join(f"{m:x}" for m in self.received[seat])]
        if self.cls.plays_card_sets:
            parts.append(f"trump {self.trump_card}")
            for s, a in self.history:
                if a < 0:
                    parts.append(f"{s}:decline")
                elif a >> SHIFT == PASS and s != seat:
                    parts.append(f"{s}:pass{(a & CARDS).bit_count()}")
                else:
                    parts.append(f"{s}:{a:x}")
        else:
            parts.extend(f"{s}:{a}" for s, a in self.history)
        return "|".join(parts)

    def observation_string(self, seat: int) -> str:
        """What ``seat`` sees now (not the past): hand, trick, trump and the score so far."""
        if self.state is None:
            return f"p{seat} dealing {len(self.deck)}"
        st = self.state
        parts = [f"p{seat}", f"hand {st.hands[seat]:x}", f"trump {st.trump}"]
        if self.cls.plays_card_sets:
            plays = [f"{s}:pass{m.bit_count()}" if v == PASS and s != seat else f"{s}:{v}:{m:x}"
                     for s, v, m in st.plays]
            parts += [f"card {self.trump_card}", "trick " + " ".join(plays),
                      f"stock {36 - st.stock_pos}", f"tricks {st.tricks}",
                      f"ask {self.window_seat() if not self.is_terminal() else -1}"]
        else:
            parts += [f"trick {st.trick}", f"won {st.won}", f"pile {st.pile}"]
        return "|".join(parts)
