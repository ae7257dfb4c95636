"""Goat at the terminal: leads of one suit, beats and face-down passes, molodkas, defeat points."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from rich.text import Text

from taash.play.court import plural
from taash.play.narrate import Event, Narration, View
from taash.play.screen import ARROW

PLAYED = {"lead": "led", "beat": "beat with", "pass": "passed", "molodka": "played a molodka"}
HELP_ORDER = {"lead": 0, "beat": 1, "molodka": 2, "pass": 3}


class GoatNarration(Narration):
    title: ClassVar[str] = "Goat"
    deal_word: ClassVar[str] = "game"
    verbs: ClassVar[bool] = True

    def rules_text(self) -> str:
        o = self.options
        eggs = "; after eggs, defeat points count double" if o["eggs"] != "none" else ""
        n = o["target"]
        return f"a team with {n} defeat point{'s' if n > 1 else ''} is the goat{eggs}."

    def announce(self, v: View) -> None:
        sc = self.screen
        sc.say(f"Dealer {sc.name(v['dealer'])}; {sc.name(v['to_move'])} "
               f"{sc.does(v['to_move'], 'leads')}. Trump is ",
               (sc.suit(v["trump"]), "bold"), " (the shown card is ",
               sc.card(v["trump_card"]), ").")

    def tell_action(self, ev: Event, typed: str) -> None:
        sc = self.screen
        seat = ev["seat"]
        who = sc.name(seat)
        verb = ev["verb"]
        if verb == "pass":
            count = ev["count"]
            if seat == sc.human:
                sc.say(f"  {who} pass ", sc.cards(typed.partition(":")[2].split(",")),
                       " face down")
            else:
                sc.say(f"  {who} passes {plural(count, 'card')} face down")
            return
        cards = ev["action"].partition(":")[2].split(",")
        if verb == "molodka":
            sc.say(f"  {who} {sc.does(seat, 'plays')} a ", ("MOLODKA", "bold magenta"), " ",
                   sc.cards(cards), ": the trick starts again; everyone answers four cards.")
        elif verb == "lead" and len(cards) == 4:
            sc.say(f"  {who} {sc.does(seat, 'leads')} a ", ("molodka", "bold magenta"), " ",
                   sc.cards(cards))
        else:
            word = {"lead": "leads", "beat": "beats with"}[verb]
            sc.say(f"  {who} {sc.does(seat, word)} ", sc.cards(cards))

    def tell_trick(self, ev: Event, before: View) -> None:
        sc = self.screen
        after, still = self.after_trick(before)
        who = sc.name(ev["winner"])
        line = f"  {sc.sign(ARROW)}{who} {sc.does(ev['winner'], 'takes')} the trick."
        if still:
            line += f" Tricks: {sc.sides(after['tricks'])}."
            if before["stock"]:
                line += f" Everyone draws; stock {after['stock']}."
        sc.say((line, "bold"))
        sc.pause_a_bit()

    def tell_deal_over(self, ev: Event) -> None:
        sc = self.screen
        match = self.match.summary()["match"]
        sc.say(("Game over. ", "bold"), f"Card points: {sc.sides(ev['points'])}.")
        if ev["eggs"]:
            sc.say(("60\u201360: eggs! ", "bold yellow"), "Nobody takes defeat points",
                   " (the next game's count double)." if
                   self.options.get("eggs") == "double-next" else ".")
        else:
            loser = 0 if ev["defeat"][0] else 1
            n = ev["defeat"][loser]
            sc.say(("We" if sc.side_name(loser) == "us" else "They", "bold"),
                   f" take {n} defeat point{'s' if n > 1 else ''}.")
        sc.say(f"Defeat points: {sc.sides(match['defeat'])} "
               f"(a team at {self.options['target']} is the goat).")

    def tell_match_over(self, ev: Event) -> None:
        sc = self.screen
        w = self.winner()  # the team that is not the goat
        if w is not None and sc.side_name(w) == "us":
            sc.say(("Their team is the goat. You win the match!", "bold green"))
        else:
            sc.say(("Our team is the goat. You lose the match.", "bold red"))
        sc.say(f"Defeat points: {sc.sides(ev['defeat'])}.")

    def standing(self) -> None:
        defeat = self.match.summary()["match"]["defeat"]
        self.screen.say(f"Defeat points so far: {self.screen.sides(defeat)}.")

    def show_status(self, v: View) -> None:
        sc = self.screen
        sc.say("Trump ", (sc.suit(v["trump"]), "bold"), " (shown ", sc.card(v["trump_card"]),
               f") \u00b7 stock {v['stock']}")
        sc.say(f"Tricks {sc.sides(v['tricks'])} \u00b7 defeat points "
               f"{sc.sides(v['match']['defeat'])} (goat at {self.options['target']})")
        # (in Court Piece everyone holds as many cards, give or take one)
        others = [f"{sc.name(s)} {v['hand_counts'][s]}"
                  for s in ((sc.human + i) % 4 for i in range(1, 4))]
        sc.say(("Cards in hand: " + " \u00b7 ".join(others), "dim"))

    def show_played(self, v: View) -> None:
        sc = self.screen
        sc.say("Table:")
        for p in v["trick"]:
            who = sc.name(p["seat"])
            if "cards" not in p:
                sc.say(f"  {who} passed {p['count']} face down")
                continue
            t = Text.assemble(f"  {who} {PLAYED[p['verb']]} ", sc.cards(p["cards"]))
            if p["verb"] == "pass":
                t.append(" face down")
            elif p["seat"] == v["top_seat"]:
                t.append(sc.marker("on top"), style="bold")
            sc.console.print(t)

    def prompt(self, v: View, suit_menu: Sequence[str]) -> Text:
        if not v["trick"]:
            return Text("Your lead: one or more cards of one suit > ")
        k = v["k"]
        extra = " (or m: molodka)" if v["can_molodka"] else ""
        return Text(f"Beat or pass {plural(k, 'card')}{extra} > ")

    def help_lines(self, v: View) -> list[str]:
        return ["Type cards by number (1 3) or code (9H KH), or a full action "
                "(lead:9H,KH  beat:TH,7D  pass:6C,7S  molodka:6H,7H,8H,9H).",
                "Leading: any cards of one suit. Answering: as many cards as were led, either "
                "beating the cards on top one for one (same suit and higher, or a trump on a "
                "non-trump) or passed face down. Put b, p or m first to say which (b 1 3); "
                "m alone plays your molodka."]

    def legal_shown(self, v: View, numbered: Sequence[str], suit_menu: Sequence[str]) -> list[Text]:
        place = {c: i for i, c in enumerate(numbered)}

        def key(a: str) -> tuple[int, list[int]]:
            verb, _, arg = a.partition(":")
            return HELP_ORDER[verb], [place.get(c, 99) for c in arg.split(",")]

        shown = []
        for a in sorted(v["legal_actions"], key=key):
            verb, _, arg = a.partition(":")
            shown.append(Text.assemble(f"{verb} ", self.screen.cards(arg.split(","))))
        return shown

    def tell_hint(self, action: str) -> None:
        verb, _, arg = action.partition(":")
        word = {"beat": "beat with", "molodka": "play the molodka"}.get(verb, verb)
        self.screen.say(f"The bot would {word} ", self.screen.cards(arg.split(",")),
                        f" ({action}).")
