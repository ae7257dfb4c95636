"""Court Piece at the terminal: four players in two teams (single or double sar), and two."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from rich.text import Text

from taash.bots import trump_hint
from taash.play.narrate import Event, Narration, View
from taash.play.screen import ARROW


def plural(n: int, word: str) -> str:
    return f"{n} {word}{'s' if n > 1 else ''}"


class CourtNarration(Narration):
    """What both Court Piece games say: the trump call, one card at a time."""

    dim_illegal: ClassVar[bool] = True

    def announce(self, v: View) -> None:
        sc = self.screen
        caller = v["caller"]
        sc.say(f"Dealer {sc.name(v['dealer'])}; ",
               f"{sc.name(caller)} {sc.does(caller, 'calls')} trump.")
        self.deal_note()
        if caller != sc.human and v.get("phase") == "trump":  # not once the trump is called
            sc.say("Your first five cards: ", sc.cards(v["hand"]))

    def deal_note(self) -> None:
        """A line about the deal, after who calls."""

    def tell_action(self, ev: Event, typed: str) -> None:
        sc = self.screen
        seat = ev["seat"]
        who = sc.name(seat)
        verb, _, arg = ev["action"].partition(":")
        if verb == "trump":
            sc.say(f"  {who} {sc.does(seat, 'calls')} ", (sc.suit(arg), "bold"), " as trump.")
        else:
            sc.say(f"  {who} {sc.does(seat, 'plays')} ", sc.card(arg))

    def tell_trick(self, ev: Event, before: View) -> None:
        sc = self.screen
        winner = sc.name(ev["winner"])
        after, still = self.after_trick(before)
        card = ev["cards"][(ev["winner"] - ev["leader"]) % sc.seats]
        text = Text.assemble("  " + sc.sign(ARROW), (f"{winner} {sc.does(ev['winner'], 'wins')} "
                                           "the trick", "bold"), " with ", sc.card(card), ".")
        if still:
            self.trick_tail(text, ev, card, before, after)
        sc.console.print(text)
        sc.pause_a_bit()

    def trick_tail(self, text: Text, ev: Event, card: str, before: View, after: View) -> None:
        """What follows a won trick while the deal goes on."""
        text.append(f" Tricks: {self.screen.sides(after['tricks'])}.")

    def show_status(self, v: View) -> None:
        sc = self.screen
        trump = v["trump"]
        sc.say("Trump ", (sc.suit(trump), "bold") if trump else "not called yet",
               f" (caller {sc.name(v['caller'])}, dealer {sc.name(v['dealer'])})")
        sc.say(self.score_line(v))

    def score_line(self, v: View) -> str:
        raise NotImplementedError

    def show_played(self, v: View) -> None:
        sc = self.screen
        parts = []
        for p in v["trick"]:
            part = Text.assemble(f"{sc.name(p['seat'])} ", sc.card(p["card"]))
            if p["seat"] == v["winning"]:  # the core's word for who would take the trick now
                part.append(sc.marker("winning"), style="bold")
            parts.append(part)
        sc.console.print(Text.assemble("Table: ", Text(" \u00b7 ").join(parts)))

    def prompt(self, v: View, suit_menu: Sequence[str]) -> Text:
        if v["phase"] == "trump":
            menu = Text("  ").join(Text.assemble((f"{i + 1}:", "bold cyan"), self.screen.suit(s))
                                    for i, s in enumerate(suit_menu))
            return Text.assemble("Call trump \u2014 ", menu, " > ")
        return Text("Your card (number or code) > ")

    def help_lines(self, v: View) -> list[str]:
        if v["phase"] == "trump":
            return ["Call trump: type a number from the list, a suit letter (S H D C) or a name "
                    "(hearts), or trump:H."]
        return ["Play a card: its number in your hand (1), its code (AS, 10h, QD) or play:AS.",
                "You must follow the suit led if you can; otherwise any card may be played."]

    def legal_shown(self, v: View, numbered: Sequence[str], suit_menu: Sequence[str]) -> list[Text]:
        sc = self.screen
        if v["phase"] == "trump":
            return [Text(f"{i + 1}:{sc.suit(x)}") for i, x in enumerate(suit_menu)]
        legal = v["legal_actions"]
        return [Text.assemble((f"{i + 1}:", "bold cyan"), sc.card(c))
                for i, c in enumerate(numbered) if f"play:{c}" in legal]

    def advise(self, v: View) -> None:
        if v["phase"] != "trump":
            return
        sc = self.screen
        best = trump_hint(self.match.game_id, v["hand"]) or v.get("trump_hint") or []
        sc.say("Advice: call the suit you hold most of: ",
               (" or ".join(sc.suit(s) for s in best), "bold"), ".")

    def tell_hint(self, action: str) -> None:
        sc = self.screen
        verb, _, arg = action.partition(":")
        if verb == "trump":
            sc.say("The bot would call ", (sc.suit(arg), "bold"), f" ({action}).")
        else:
            sc.say("The bot would play ", sc.card(arg), f" ({action}).")


class CourtTeams(CourtNarration):
    """Court Piece: four players, partners opposite; coats and deals won."""

    title: ClassVar[str] = "Court Piece"

    @property
    def double(self) -> bool:
        return bool(self.options.get("sar") == "double")

    def rules_text(self) -> str:
        o = self.options
        sar = "double sar" + (" with the ace rule" if o["ace_rule"] else "") \
            if o["sar"] == "double" else "single sar"
        call = "trump from the suit held most" if o["trump_rule"] == "most-held" \
            else "free trump call"
        end = o["session_end"]
        if end is None:
            until = "open session (q ends it)"
        elif "coats" in end:
            until = f"first team to {plural(end['coats'], 'coat')} wins"
        else:
            until = f"{plural(end['deals'], 'deal')}, then most coats wins"
        return f"{sar}, {call}; {until}."

    def trick_tail(self, text: Text, ev: Event, card: str, before: View, after: View) -> None:
        if not self.double:
            super().trick_tail(text, ev, card, before, after)
            return
        sc = self.screen
        winner = sc.name(ev["winner"])
        got = [a - b for a, b in zip(after["tricks"], before["tricks"], strict=True)]
        if any(got):
            side = 0 if got[0] else 1
            text.append(f" {winner} {sc.does(ev['winner'], 'collects')} "
                        f"{plural(got[side], 'trick')} for {sc.side_name(side)}!",
                        style="bold green")
        else:
            if self.options.get("ace_rule") and card[0] == "A" and after["tricks_played"] > 2:
                text.append(" An ace-won trick does not collect.")
            text.append(f" Pile: {after['pile']}.")
        text.append(f" Collected: {sc.sides(after['tricks'])}.")

    def score_line(self, v: View) -> str:
        sc = self.screen
        line = f"{'Collected' if self.double else 'Tricks'} {sc.sides(v['tricks'])}"
        if self.double:
            line += f" \u00b7 pile {v['pile']}"
        return (line + f" \u00b7 coats {sc.sides(v['match']['coats'])}"
                f" \u00b7 deals {sc.sides(v['match']['deals_won'])}")

    def tell_deal_over(self, ev: Event) -> None:
        sc = self.screen
        match = self.match.summary()["match"]
        w = ev["winner"]
        won = "Our team" if sc.side_name(w) == "us" else "Their team"
        sc.say(("Deal over: ", "bold"), (f"{won} wins {ev['tricks'][w]}\u2013"
                                        f"{ev['tricks'][1 - w]}", "bold"),
               (" with a COAT!" if ev["coat"] else "", "bold magenta"))
        sc.say(f"Coats: {sc.sides(match['coats'])}. Deals won: {sc.sides(match['deals_won'])}.")

    def tell_match_over(self, ev: Event) -> None:
        sc = self.screen
        w = self.winner()
        if w is None:
            sc.say(("The session is drawn.", "bold"))
        elif sc.side_name(w) == "us":
            sc.say(("Your team wins the session!", "bold green"))
        else:
            sc.say(("Their team wins the session.", "bold red"))
        sc.say(f"Coats: {sc.sides(ev['coats'])}. Deals won: {sc.sides(ev['deals_won'])}.")

    def standing(self) -> None:
        sc = self.screen
        match = self.match.summary()["match"]
        c, d = match["coats"], match["deals_won"]
        mine = sc.human & 1
        ours, theirs = (c[mine], d[mine]), (c[1 - mine], d[1 - mine])
        lead = ("Your team leads." if ours > theirs else
                "Their team leads." if theirs > ours else "Level.")
        sc.say(f"Coats so far: {sc.sides(c)}. Deals won: {sc.sides(d)}. {lead}")


class CourtTwo(CourtNarration):
    """Two-player Court Piece: thirteen cards each, points to a target."""

    title: ClassVar[str] = "Two-player Court Piece"

    def rules_text(self) -> str:
        return f"first to {self.options['target']} points wins."

    def deal_note(self) -> None:
        self.screen.say("Thirteen cards each; the other 26 stay out of play, unseen.")

    def score_line(self, v: View) -> str:
        sc = self.screen
        return (f"Tricks {sc.sides(v['tricks'])} \u00b7 points "
                f"{sc.sides(v['match']['points'])} (first to {self.options['target']})")

    def tell_deal_over(self, ev: Event) -> None:
        sc = self.screen
        match = self.match.summary()["match"]
        w = ev["winner"]
        who = "You win" if w == sc.human else f"{sc.them()} wins"
        how = "a COURT" if ev["court"] else ("as caller" if w == ev["caller"]
                                            else "against the caller")
        sc.say(("Deal over: ", "bold"), (f"{who} {ev['tricks'][w]}\u2013"
                                        f"{ev['tricks'][1 - w]}", "bold"),
               f", {how}: +{ev['scored'][w]}.")
        sc.say(f"Points: {sc.sides(match['points'])} (first to {self.options['target']}).")

    def tell_match_over(self, ev: Event) -> None:
        sc = self.screen
        if self.winner() == sc.human:
            sc.say(("You win the match!", "bold green"))
        else:
            sc.say((f"{sc.them()} wins the match.", "bold red"))
        sc.say(f"Points: {sc.sides(ev['points'])}.")

    def standing(self) -> None:
        points = self.match.summary()["match"]["points"]
        self.screen.say(f"Points so far: {self.screen.sides(points)}.")

