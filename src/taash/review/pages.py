"""What `taash review` shows in a terminal: a deal page by page (the deal as dealt, then each
trick with the hands before it, its plays, the analysis under each play, and the result), and
the keys that step through the deals.  The command itself is taash.review.command.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence

from rich.text import Text

from taash.games import game_class
from taash.play.screen import Screen, suit_order
from taash.review.analyse import ActionReview, DealAnalysis
from taash.review.replay import DealReplay, Step, Trick

KEYS = "Enter/n next · b back · 1-{last} trick · o hands · q quit"
DOES = {"play": "plays", "lead": "leads", "beat": "beats with", "pass": "passes",
        "molodka": "plays a molodka:", "trump": "calls trump"}


class Pages:
    """What the terminal shows of a deal: page 0 the deal as dealt (and the trump call), page
    k the k-th trick (the hands before it, its plays and winner, the score after it)."""

    def __init__(self, screen: Screen, seat: int | None) -> None:
        self.sc = screen
        self.seat = seat
        self.only: int | None = seat  # whose hand alone is shown; None: every hand

    def toggle(self, seats: int) -> None:
        """Every hand open, or only one: --seat's, or without it each seat in turn."""
        if self.seat is not None:
            self.only = None if self.only is not None else self.seat
        else:
            self.only = 0 if self.only is None else (None if self.only + 1 >= seats
                                                     else self.only + 1)

    def name(self, seat: int) -> str:
        return f"seat {seat}" + (" (you)" if seat == self.seat else "")

    def side(self, d: DealReplay, side: int) -> str:
        if d.num_seats == 2:
            return self.name(side)
        return f"team {side}"

    def sides(self, d: DealReplay, values: Sequence[int]) -> str:
        return " \u00b7 ".join(f"{self.side(d, i)} {v}" for i, v in enumerate(values))

    def trump(self, d: DealReplay) -> str | None:
        t = d.result.get("trump")
        return str(t) if t else None

    def hand(self, d: DealReplay, cards: Sequence[str]) -> Text:
        order = [c for s in suit_order(self.trump(d)) for c in cards if c[1] == s]
        return self.sc.cards(order) if order else Text("(no cards)", style="dim")

    def hands(self, d: DealReplay, pos: int, title: str) -> None:
        hands = d.positions[pos].hands
        shown = range(d.num_seats) if self.only is None else [self.only]
        self.sc.say((title, "bold"), "" if self.only is None else f" (only {self.name(self.only)})")
        for s in shown:
            self.sc.console.print(Text.assemble(f"  {self.name(s):<14}", self.hand(d, hands[s])))

    def head(self, d: DealReplay) -> None:
        r = d.result
        fair = {True: "fair: checked", None: "fair: no proof"}.get(r.get("fair"), "")
        self.sc.say((f"Deal {d.deal} (deals 0-{d.num_deals - 1}) \u00b7 "
                     f"{game_class(d.game).text_name}", "bold"),
                    f" \u00b7 dealer {self.name(int(r['dealer']))} \u00b7 {fair}")
        teams = d.positions[0].view.get("teams")
        if teams:
            self.sc.say("Teams: " + " \u00b7 ".join(
                f"team {i} = seats {' and '.join(str(s) for s in t)}" for i, t in enumerate(teams)))

    def deal_page(self, d: DealReplay) -> None:
        sc = self.sc
        self.head(d)
        if game_class(d.game).shows_trump_card:
            sc.say("Trump card ", sc.card(str(d.result["trump_card"])), " (",
                   sc.suit(str(d.result["trump"])), f"); {self.name(int(d.result['leader']))} "
                   "leads.")
            self.hands(d, 0, "Hands as dealt:")
            return
        if d.call is None:
            sc.say(f"{self.name(int(d.result['caller']))} calls trump from ",
                   sc.cards(d.positions[0].hands[int(d.result['caller'])]), " (no call yet).")
            return
        sc.say(f"{self.name(d.call.seat)} called ", (sc.suit(d.call.suit), "bold"),
               " as trump from the first five: ", sc.cards(d.call.first_cards))
        self.hands(d, 1, "Hands after the call:")

    def trick_page(self, d: DealReplay, a: DealAnalysis | None, k: int) -> None:
        sc = self.sc
        t = d.tricks[k - 1]
        sc.say((f"Trick {k} of {len(d.tricks)}", "bold"), f" \u00b7 deal {d.deal}"
               + (f" \u00b7 trump {sc.suit(self.trump(d) or '')}" if self.trump(d) else ""))
        self.hands(d, t.steps[0], "Hands before it:")
        if t.collector is not None:
            sc.say(self.pile_line(t))
        for i in t.steps:
            self.play_line(d, d.steps[i], t)
            r = a.for_step(i) if a is not None else None
            if r is not None:
                self.analysis_lines(r)
        line = Text.assemble("  \u2192 ", (f"{self.name(t.winner)} wins the trick", "bold"))
        if t.collected:
            line.append(f"; {self.side(d, d.side_of(t.winner))} collects {t.collected}")
        sc.console.print(line)
        word = "Collected" if t.collector is not None else "Tricks"
        score = f"{word}: {self.sides(d, t.won)}"
        if t.points is not None:
            score += f" \u00b7 card points: {self.sides(d, t.points)}"
        sc.say(score)
        if k == len(d.tricks):
            self.result(d, a)

    def pile_line(self, t: Trick) -> str:
        c = t.collector or {}
        if c.get("last"):
            return f"  Pile: {c['pile']}; the last trick collects it."
        who = c.get("seat")
        if who is None:
            return f"  Pile: {c['pile']}; no one collects with this trick."
        return f"  Pile: {c['pile']}; {self.name(int(who))} collects it by winning this trick."

    def play_line(self, d: DealReplay, s: Step, t: Trick) -> None:
        sc = self.sc
        verb = s.verb
        face_down = verb == "pass"
        line = Text.assemble(f"  {self.name(s.seat):<14}{DOES.get(verb, verb)} ",
                             sc.cards(s.cards))
        if face_down:
            line.append("  (face down)", style="dim")
        last_of = {d.steps[j].seat: j for j in t.steps}  # a molodka takes back earlier plays
        if last_of[s.seat] != s.index:
            line.append("  (taken back by the molodka)", style="dim")
        sc.console.print(line)

    def analysis_lines(self, r: ActionReview) -> None:
        sc = self.sc
        if r.known is not None:
            if r.known.bot is None:
                sc.say("      only what the player knew: hard would not have acted now",
                       style_of(False))
            else:
                verb, _, arg = r.known.bot.partition(":")
                cards = sc.cards([c for c in arg.split(",")]) if verb != "trump" else \
                    Text(sc.suit(arg))
                gain = ""
                if r.known.gain is not None:
                    gain = (f"; its choice scored {r.known.gain:+.2f} against this play over "
                            f"{r.known.samples} samples (1 = a won deal)")
                sc.say("      only what the player knew: hard ", f"{verb} ", cards,
                       (" (the same)" if r.known.matched else " (different)",
                        style_of(r.known.matched)), gain)
        o = r.open
        if o is None:
            return
        if o.verdict is None:
            sc.say(("      all cards open: " + (o.note or "not judged"), "dim"))
            return
        text = (f"      all cards open: {o.verdict.upper()} \u00b7 could reach {o.before} "
                f"{o.unit} ({o.standing_before}), after it {o.after} ({o.standing_after})")
        if o.coat_before and not o.coat_after:
            text += " \u00b7 gives up the coat"
        if o.coated_before is False and o.coated_after:
            text += " \u00b7 concedes a coat"
        if o.verdict != "best":
            text += " \u00b7 best: " + ", ".join(o.best)
        if o.note:
            text += f" ({o.note})"
        sc.say((text, "bold red" if o.verdict == "blunder" else
                "yellow" if o.verdict == "mistake" else "green"))

    def result(self, d: DealReplay, a: DealAnalysis | None) -> None:
        sc = self.sc
        r = d.result
        if not d.complete:
            rest = [st for st in d.steps if st.trick > len(d.tricks)]
            if rest:
                sc.say((f"Trick {rest[0].trick}, not finished:", "bold"))
                for st in rest:
                    sc.console.print(Text.assemble(f"  {self.name(st.seat):<14}"
                                                   f"{DOES.get(st.verb, st.verb)} ",
                                                   sc.cards(st.cards)))
            sc.say(("Result: the record stops inside this deal.", "bold"))
            return
        if game_class(d.game).deal_unit == "points":  # Goat
            pts, defeat = r["points"], r["defeat"]
            text = f"Result: card points {self.sides(d, pts)}"
            text += " (eggs)" if r.get("eggs") else ""
            text += f"; defeat points {self.sides(d, defeat)}."
        else:
            winner = int(r["winner"])
            text = f"Result: {self.side(d, winner)} wins, {self.sides(d, r['tricks'])}"
            if r.get("coat") or r.get("court"):
                text += ", a coat" if r.get("coat") else ", a court"
            if "scored" in r:
                text += f"; points {self.sides(d, r['scored'])}"
            text += "."
        sc.say((text, "bold"))
        if d.outcome is not None:
            o = d.outcome
            sc.say(("The match ends: " + ("a draw" if o.draw else
                                          f"{self.side(d, int(o.winner or 0))} wins"),
                    "bold"), f" ({o.reason}).")
        if a is not None:
            sc.say(("Review per seat:", "bold"),
                   f" (all cards open: {solver_name(a.solver)})" if a.solver else "")
            for s in a.seats:
                sc.say(f"  {self.name(s.seat):<14}", f"{s.matched_hard} of {s.actions} "
                       "actions as hard would (only what it knew)")
                if a.solver:
                    sc.say(f"  {'':<14}", f"all cards open: {s.blunders} blunders, "
                           f"{s.mistakes} mistakes, {s.best} best of {s.judged} judged")
            for note in a.notes:
                sc.say((f"  {note}", "dim"))

    def show(self, d: DealReplay, a: DealAnalysis | None, k: int) -> None:
        if k == 0:
            self.deal_page(d)
            if not d.tricks:
                self.result(d, a)
        else:
            self.trick_page(d, a, k)

    def whole(self, d: DealReplay, a: DealAnalysis | None) -> None:
        for k in range(len(d.tricks) + 1):
            self.show(d, a, k)
            self.sc.console.print()


SOLVER_NAMES = {"dds": "DDS, the bridge solver, through endplay",
                "taash": "taash's own solver"}


def solver_name(label: str) -> str:
    """The exact solver a label names ("dds", "taash", or both joined by "+"), for people."""
    return " and ".join(SOLVER_NAMES.get(p, p) for p in label.split("+"))


def style_of(good: bool) -> str:
    return "green" if good else "yellow"


def browse(page: Pages, which: list[int],
           load: Callable[[int], tuple[DealReplay, DealAnalysis | None]]) -> None:
    """Step through the deals in ``which`` in a terminal, one page at a time."""
    sc = page.sc
    at = 0
    d, a = load(which[at])
    k = 0
    while True:
        sc.console.print()
        page.show(d, a, k)
        sc.console.print(Text(KEYS.format(last=len(d.tricks)) + " > ", style="dim"), end="")
        line = sys.stdin.readline()
        if not line:
            sc.console.print()
            return
        key = line.strip().lower()
        if key in ("q", "quit", "exit"):
            return
        if key in ("", "n"):
            if k < len(d.tricks):
                k += 1
            elif at + 1 < len(which):
                at += 1
                d, a = load(which[at])
                k = 0
            else:
                sc.say(("That was the last trick.", "dim"))
        elif key == "b":
            if k > 0:
                k -= 1
            elif at > 0:
                at -= 1
                d, a = load(which[at])
                k = len(d.tricks)
        elif key == "o":
            page.toggle(d.num_seats)
        elif key.isdigit() and 0 <= int(key) <= len(d.tricks):
            k = int(key)
        else:
            sc.say((f"Keys: {KEYS.format(last=len(d.tricks))}", "dim"))
