"""`taash play`: one person plays a whole match in a terminal against the built-in bots.

Plain Rich output and line input, so it works the same in a terminal, over ssh and with piped
input (the tests drive it that way).  The rules core decides everything: this module only turns
what the player types into action text (a card code, a number from the hand, a full action),
shows the core's reason when it refuses one, and narrates what the bots do.

Exit codes: 0 after quitting or finishing (end of input counts as quitting), 130 on Ctrl-C,
2 for bad flags or options, each with one line on stderr.
"""

from __future__ import annotations

import random
import re
import sys
import time
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Annotated, Any, Protocol

import typer
from rich.console import Console
from rich.text import Text
from typer.core import TyperCommand

from taash.cards import SUIT_NAMES, SUITS, CardError, parse_card
from taash.cli_common import fail, game_and_options
from taash.games import GAMES, IllegalAction, MalformedAction, OptionError, new_match

TITLES = {"court-piece": "Court Piece", "court-piece-2p": "Two-player Court Piece",
          "goat": "Goat"}
QUIT_WORDS = frozenset({"q", "quit", "exit"})
HELP_WORDS = frozenset({"?", "help"})
GOAT_VERBS = {"l": "lead", "lead": "lead", "b": "beat", "beat": "beat", "p": "pass",
              "pass": "pass", "m": "molodka", "molodka": "molodka"}
SYMBOL_TO_SUIT = {"\u2660": "S", "\u2665": "H", "\u2666": "D", "\u2663": "C"}
SUIT_WORDS = {**{s.lower(): s for s in SUITS}, **{n: SUITS[i] for i, n in enumerate(SUIT_NAMES)},
              **{n[:-1]: SUITS[i] for i, n in enumerate(SUIT_NAMES)},
              **{sym: s for sym, s in SYMBOL_TO_SUIT.items()}}
HINT_MS = 400.0  # how long the hint may think
RED_STYLE = "bold red3 on grey93"
BLACK_STYLE = "bold black on grey93"


class Level(StrEnum):
    easy = "easy"
    hard = "hard"
    random = "random"


class Bot(Protocol):
    def act(self, view: dict[str, Any]) -> str | None: ...


class Quit(Exception):
    """The player leaves the table (``q`` or end of input)."""


class PlayCommand(TyperCommand):
    """`taash play` with usage errors as one line on stderr (exit 2), not a help panel."""

    def parse_args(self, ctx: Any, args: list[str]) -> list[str]:
        try:
            return super().parse_args(ctx, args)
        except typer.TyperException as e:
            fail(f"play: {e.format_message()}")


def register(app: typer.Typer) -> None:
    app.command("play", cls=PlayCommand)(play)


def play(
    game: Annotated[str | None, typer.Argument(
        metavar="GAME", help="court-piece, court-piece-2p or goat", show_default=False)] = None,
    options: Annotated[str | None, typer.Option(
        help='game options as JSON, e.g. \'{"sar": "double"}\'')] = None,
    seat: Annotated[int, typer.Option(help="your seat (0 is the first seat)")] = 0,
    level: Annotated[Level, typer.Option(help="the bots' level")] = Level.easy,
    seed: Annotated[int | None, typer.Option(
        help="seed for the deals and the bots: the same seed, the same cards")] = None,
    pause: Annotated[float | None, typer.Option(
        help="seconds to wait after each bot move (default 0.6 in a terminal, else 0)")] = None,
) -> None:
    """Play a whole match in the terminal against bots.

    Type a card (AS, 10h), its number in your hand, or a full action (trump:H, lead:9H,KH);
    ? for help and your legal moves, hint for a suggestion, q to quit.
    """
    if game is None:
        fail(f"play: which game? ({', '.join(GAMES)})")
    game, opts = game_and_options(game, options)
    try:
        match = new_match(game, opts, seed=seed)
    except OptionError as e:
        fail(str(e))
    seats = match.num_seats
    if not 0 <= seat < seats:
        fail(f"--seat must be 0..{seats - 1} for {game}, not {seat}")
    if pause is None:
        pause = 0.6 if sys.stdout.isatty() else 0.0
    if pause < 0:
        fail("--pause must be 0 or more seconds")
    base = seed if seed is not None else random.randrange(1 << 30)
    from taash.bots import make_bot

    bots: dict[int, Bot] = {s: make_bot(game, level.value, base * 10 + s + 1)
                            for s in range(seats) if s != seat}
    table = Table(game, match, seat, bots, make_console(), pause, hint_seed=base * 10)
    try:
        code = table.run()
    except KeyboardInterrupt:
        table.console.print()
        typer.echo("taash: interrupted", err=True)
        raise typer.Exit(130) from None
    raise typer.Exit(code)


def make_console() -> Console:
    return Console(highlight=False, emoji=False)


def can_write_symbols() -> bool:
    enc = getattr(sys.stdout, "encoding", None) or "ascii"
    try:
        "".join(SYMBOL_TO_SUIT).encode(enc)
    except (UnicodeEncodeError, LookupError):
        return False
    return True


@dataclass
class Table:
    """One player at a table of bots, for a whole match."""

    game: str
    match: Any
    human: int
    bots: dict[int, Bot]
    console: Console
    pause: float
    hint_seed: int = 0
    symbols: bool = field(default_factory=can_write_symbols)
    interactive: bool = field(default_factory=lambda: sys.stdin.isatty())
    numbered: list[str] = field(default_factory=list)
    suit_menu: list[str] = field(default_factory=list)
    announced: int = -1
    _hinter: Bot | None = None

    # -- names -------------------------------------------------------------------------------
    @property
    def goat(self) -> bool:
        return self.game == "goat"

    @property
    def seats(self) -> int:
        return int(self.match.num_seats)

    @property
    def teams(self) -> bool:
        return self.seats == 4

    def name(self, seat: int) -> str:
        if seat == self.human:
            return "You"
        if self.seats == 2:
            return f"Bot ({seat})"
        where = ("You", "Left", "Partner", "Right")[(seat - self.human) % 4]
        return f"{where} ({seat})"

    def does(self, seat: int, verb: str) -> str:
        """``verb`` (third person) agreeing with the seat's name: "You play", "Left plays"."""
        if seat != self.human:
            return verb
        first, _, rest = verb.partition(" ")
        first = first[:-2] if first.endswith("sses") else first[:-1]
        return f"{first} {rest}".rstrip()

    def side_name(self, side: int) -> str:
        """A team (4 players) or a seat (2 players), from the player's point of view."""
        if self.teams:
            return "us" if side == self.human & 1 else "them"
        return "you" if side == self.human else "bot"

    def sides(self, values: list[Any]) -> str:
        mine = self.human & 1 if self.teams else self.human
        return f"{self.side_name(mine)} {values[mine]} \u00b7 {self.side_name(1 - mine)} " \
               f"{values[1 - mine]}"

    def suit(self, s: str) -> str:
        sym = SUITS.index(s)
        return f"{SUIT_SYMBOL[sym] if self.symbols else s} {SUIT_NAMES[sym]}"

    def card(self, code: str) -> Text:
        rank = "10" if code[0] == "T" else code[0]
        sym = SUIT_SYMBOL[SUITS.index(code[1])] if self.symbols else code[1]
        return Text(f"{rank}{sym}", style=RED_STYLE if code[1] in "HD" else BLACK_STYLE)

    def cards(self, codes: list[str]) -> Text:
        return Text(" ").join(self.card(c) for c in codes)

    def say(self, *parts: str | Text | tuple[str, str]) -> None:
        self.console.print(Text.assemble(*parts))

    # -- the main loop -----------------------------------------------------------------------
    def run(self) -> int:
        m = self.match
        title = TITLES[self.game]
        self.say((f"{title}", "bold"), f" \u2014 you are seat {self.human}",
                 f", partner seat {(self.human + 2) % 4}" if self.teams else "",
                 ". Type ? for help, q to quit.")
        self.say(("Rules: " + self.rules_text(), "dim"))
        try:
            while not m.is_over():
                self.announce_deal()
                self.step()
        except Quit as e:
            self.say(str(e))
            self.standing()
            return 0
        return 0

    def rules_text(self) -> str:
        o = self.match.options
        if self.goat:
            eggs = "; after eggs, defeat points count double" if o["eggs"] != "none" else ""
            n = o["target"]
            return f"a team with {n} defeat point{'s' if n > 1 else ''} is the goat{eggs}."
        if not self.teams:
            return f"first to {o['target']} points wins."
        sar = "double sar" + (" with the ace rule" if o["ace_rule"] else "") \
            if o["sar"] == "double" else "single sar"
        call = "trump from the suit held most" if o["trump_rule"] == "most-held" \
            else "free trump call"
        end = o["session_end"]
        if end is None:
            until = "open session (q ends it)"
        elif "coats" in end:
            until = f"first team to {end['coats']} coat{'s' if end['coats'] > 1 else ''} wins"
        else:
            until = f"{end['deals']} deal{'s' if end['deals'] > 1 else ''}, then most coats wins"
        return f"{sar}, {call}; {until}."

    def step(self) -> None:
        """One action by someone: the seat to move always acts; others (Goat's molodka
        holders) may act first, the player being asked before any bot moves."""
        m = self.match
        actors: list[int] = m.actors()
        to_move = m.view(self.human)["to_move"]
        if self.goat and self.human in actors and self.human != to_move:
            hand = m.view(self.human)["hand"]
            if self.ask_yes(Text.assemble(
                    "Your molodka ", self.cards(hand),
                    f": play it now, before {self.name(to_move)} moves? [y/N] ")):
                self.act(self.human, "molodka:" + ",".join(hand))
                return
        for s in actors:  # in GT-8 order; a bot out of turn may decline
            if s != self.human and self.bot_turn(s, optional=s != to_move):
                return
        if to_move == self.human:
            self.human_turn()

    def bot_turn(self, seat: int, optional: bool) -> bool:
        m = self.match
        action = self.bots[seat].act(m.view(seat))
        if action is None:
            if optional:
                return False
            action = m.legal_actions(seat)[0]
            self.say((f"(the bot at seat {seat} did not move; it plays {action})", "dim"))
        try:
            m.action_id(seat, action)
        except (IllegalAction, MalformedAction) as e:
            if optional:
                return False
            fallback = m.legal_actions(seat)[0]
            self.say((f"(the bot at seat {seat} chose {action!r}: {e}; it plays {fallback})",
                      "dim"))
            action = fallback
        if self.pause:
            time.sleep(self.pause)
        self.act(seat, action)
        return True

    # -- applying and narrating --------------------------------------------------------------
    def act(self, seat: int, action: str) -> None:
        m = self.match
        before = m.view(self.human)
        action = m.action_text(m.action_id(seat, action))  # canonical, for the narration
        events: list[dict[str, Any]] = m.apply(seat, action)
        for ev in events:
            kind = ev["type"]
            if kind == "action":
                self.tell_action(ev, action)
            elif kind == "trick":
                self.tell_trick(ev, before)
            elif kind == "deal_over":
                self.tell_deal_over(ev)
            elif kind == "match_over":
                self.tell_match_over(ev)

    def tell_action(self, ev: dict[str, Any], typed: str) -> None:
        seat = ev["seat"]
        who = self.name(seat)
        if not self.goat:
            verb, _, arg = ev["action"].partition(":")
            if verb == "trump":
                self.say(f"  {who} {self.does(seat, 'calls')} ", (self.suit(arg), "bold"),
                         " as trump.")
            else:
                self.say(f"  {who} {self.does(seat, 'plays')} ", self.card(arg))
            return
        verb = ev["verb"]
        if verb == "pass":
            count = ev["count"]
            if ev["seat"] == self.human:
                cards = [parse_card(c) for c in typed.partition(":")[2].split(",")]
                self.say(f"  {who} pass ", self.cards(cards), " face down")
            else:
                self.say(f"  {who} passes {count} card{'s' if count > 1 else ''} face down")
            return
        cards = ev["action"].partition(":")[2].split(",")
        if verb == "molodka":
            self.say(f"  {who} {self.does(seat, 'plays')} a ",
                     ("MOLODKA", "bold magenta"), " ", self.cards(cards),
                     ": the trick starts again; everyone answers four cards.")
            return
        if verb == "lead" and len(cards) == 4:
            self.say(f"  {who} {self.does(seat, 'leads')} a ",
                     ("molodka", "bold magenta"), " ", self.cards(cards))
            return
        word = {"lead": "leads", "beat": "beats with"}[verb]
        self.say(f"  {who} {self.does(seat, word)} ", self.cards(cards))

    def tell_trick(self, ev: dict[str, Any], before: dict[str, Any]) -> None:
        winner = self.name(ev["winner"])
        after = self.match.view(self.human)
        still = after["deal_number"] == before["deal_number"] and after["phase"] != "over"
        if self.goat:
            line = f"  \u2192 {winner} {self.does(ev['winner'], 'takes')} the trick."
            if still:
                line += f" Tricks: {self.sides(after['tricks'])}."
                if before["stock"]:
                    line += f" Everyone draws; stock {after['stock']}."
            self.say((line, "bold"))
            self.pause_a_bit()
            return
        card = ev["cards"][(ev["winner"] - ev["leader"]) % self.seats]
        text = Text.assemble("  \u2192 ", (f"{winner} {self.does(ev['winner'], 'wins')} "
                                           "the trick", "bold"), " with ", self.card(card), ".")
        if still:
            if self.match.options.get("sar") == "double":
                got = [a - b for a, b in zip(after["tricks"], before["tricks"], strict=True)]
                if any(got):
                    side = 0 if got[0] else 1
                    text.append(f" {winner} {self.does(ev['winner'], 'collects')} "
                                f"{got[side]} trick"
                                f"{'s' if got[side] > 1 else ''} for {self.side_name(side)}!",
                                style="bold green")
                else:
                    if (self.match.options.get("ace_rule") and card[0] == "A"
                            and after["tricks_played"] > 2):
                        text.append(" An ace-won trick does not collect.")
                    text.append(f" Pile: {after['pile']}.")
                text.append(f" Collected: {self.sides(after['tricks'])}.")
            else:
                text.append(f" Tricks: {self.sides(after['tricks'])}.")
        self.console.print(text)
        self.pause_a_bit()

    def tell_deal_over(self, ev: dict[str, Any]) -> None:
        match = self.match.summary()["match"]
        if self.goat:
            pts = ev["points"]
            self.say(("Game over. ", "bold"), f"Card points: {self.sides(pts)}.")
            if ev["eggs"]:
                self.say(("60\u201360: eggs! ", "bold yellow"), "Nobody takes defeat points",
                         " (the next game's count double)." if
                         self.match.options.get("eggs") == "double-next" else ".")
            else:
                loser = 0 if ev["defeat"][0] else 1
                n = ev["defeat"][loser]
                who = self.side_name(loser)
                self.say(("We" if who == "us" else "They", "bold"),
                         f" take {n} defeat point{'s' if n > 1 else ''}.")
            self.say(f"Defeat points: {self.sides(match['defeat'])} "
                     f"(a team at {self.match.options['target']} is the goat).")
        elif self.teams:
            w = ev["winner"]
            won = "Our team" if self.side_name(w) == "us" else "Their team"
            coat = ev["coat"]
            self.say(("Deal over: ", "bold"), (f"{won} wins {ev['tricks'][w]}\u2013"
                                              f"{ev['tricks'][1 - w]}", "bold"),
                     (" with a COAT!" if coat else "", "bold magenta"))
            self.say(f"Coats: {self.sides(match['coats'])}. "
                     f"Deals won: {self.sides(match['deals_won'])}.")
        else:
            w = ev["winner"]
            who = "You win" if w == self.human else "The bot wins"
            gain = ev["scored"][w]
            how = "a COURT" if ev["court"] else ("as caller" if w == ev["caller"]
                                                else "against the caller")
            self.say(("Deal over: ", "bold"), (f"{who} {ev['tricks'][w]}\u2013"
                                              f"{ev['tricks'][1 - w]}", "bold"),
                     f", {how}: +{gain}.")
            self.say(f"Points: {self.sides(match['points'])} "
                     f"(first to {self.match.options['target']}).")
        if self.interactive and not self.match.is_over():
            # the next deal starts at once, and the bots may move before the player's turn
            word = "game" if self.goat else "deal"
            if self.ask(Text(f"Press Enter for the next {word} (q quits) > ")) in QUIT_WORDS:
                raise Quit("You left the table.")
        else:
            self.pause_a_bit()

    def tell_match_over(self, ev: dict[str, Any]) -> None:
        self.console.rule("Match over")
        if self.goat:
            loser = ev["loser"]
            if self.side_name(loser) == "us":
                self.say(("Our team is the goat. You lose the match.", "bold red"))
            else:
                self.say(("Their team is the goat. You win the match!", "bold green"))
            self.say(f"Defeat points: {self.sides(ev['defeat'])}.")
        elif self.teams:
            w = ev["winner"]
            if w == "draw":
                self.say(("The session is drawn.", "bold"))
            elif self.side_name(w) == "us":
                self.say(("Your team wins the session!", "bold green"))
            else:
                self.say(("Their team wins the session.", "bold red"))
            self.say(f"Coats: {self.sides(ev['coats'])}. "
                     f"Deals won: {self.sides(ev['deals_won'])}.")
        else:
            if ev["winner"] == self.human:
                self.say(("You win the match!", "bold green"))
            else:
                self.say(("The bot wins the match.", "bold red"))
            self.say(f"Points: {self.sides(ev['points'])}.")

    def standing(self) -> None:
        """The score so far, for a player who leaves early."""
        match = self.match.summary()["match"]
        if self.goat:
            self.say(f"Defeat points so far: {self.sides(match['defeat'])}.")
        elif self.teams:
            c, d = match["coats"], match["deals_won"]
            mine = self.human & 1
            ours, theirs = (c[mine], d[mine]), (c[1 - mine], d[1 - mine])
            lead = ("Your team leads." if ours > theirs else
                    "Their team leads." if theirs > ours else "Level.")
            self.say(f"Coats so far: {self.sides(c)}. Deals won: {self.sides(d)}. {lead}")
        else:
            self.say(f"Points so far: {self.sides(match['points'])}.")

    def pause_a_bit(self) -> None:
        if self.pause:
            time.sleep(self.pause * 1.5)

    def announce_deal(self) -> None:
        v = self.match.view(self.human)
        n = v["deal_number"]
        if n == self.announced or v["phase"] in ("over", "waiting"):
            return
        self.announced = n
        word = "Game" if self.goat else "Deal"
        self.console.rule(f"{word} {n + 1}")
        if self.goat:
            self.say(f"Dealer {self.name(v['dealer'])}; {self.name(v['to_move'])} "
                     f"{self.does(v['to_move'], 'leads')}. Trump is ",
                     (self.suit(v["trump"]), "bold"), " (the shown card is ",
                     self.card(v["trump_card"]), ").")
            return
        caller = v["caller"]
        self.say(f"Dealer {self.name(v['dealer'])}; ",
                 f"{self.name(caller)} {self.does(caller, 'calls')} trump.")
        if self.seats == 2:
            self.say("Thirteen cards each; the other 26 stay out of play, unseen.")
        if caller != self.human:
            self.say("Your first five cards: ", self.cards(v["hand"]))

    # -- showing the table -------------------------------------------------------------------
    def show_table(self, v: dict[str, Any]) -> None:
        self.console.print()
        opts = self.match.options
        if self.goat:
            self.say("Trump ", (self.suit(v["trump"]), "bold"), " (shown ",
                     self.card(v["trump_card"]), f") \u00b7 stock {v['stock']}")
            self.say(f"Tricks {self.sides(v['tricks'])} \u00b7 defeat points "
                     f"{self.sides(v['match']['defeat'])} (goat at {opts['target']})")
        else:
            trump = v["trump"]
            self.say("Trump ", (self.suit(trump), "bold") if trump else "not called yet",
                     f" (caller {self.name(v['caller'])}, dealer {self.name(v['dealer'])})")
            if self.teams:
                double = opts.get("sar") == "double"
                line = f"{'Collected' if double else 'Tricks'} {self.sides(v['tricks'])}"
                if double:
                    line += f" \u00b7 pile {v['pile']}"
                line += (f" \u00b7 coats {self.sides(v['match']['coats'])}"
                         f" \u00b7 deals {self.sides(v['match']['deals_won'])}")
            else:
                line = (f"Tricks {self.sides(v['tricks'])} \u00b7 points "
                        f"{self.sides(v['match']['points'])} (first to {opts['target']})")
            self.say(line)
        if self.goat:  # (in Court Piece everyone holds as many cards, give or take one)
            others = [f"{self.name(s)} {v['hand_counts'][s]}"
                      for s in ((self.human + i) % 4 for i in range(1, 4))]
            self.say(("Cards in hand: " + " \u00b7 ".join(others), "dim"))
        self.show_trick(v)
        self.show_hand(v)

    def show_trick(self, v: dict[str, Any]) -> None:
        if v["phase"] == "trump":
            return
        if not v["trick"]:
            self.say("Table: empty", " \u2014 you lead" if v["to_move"] == self.human else "")
            return
        if not self.goat:
            parts = [Text.assemble(f"{self.name(p['seat'])} ", self.card(p["card"]))
                     for p in v["trick"]]
            best = winning(v["trick"], v["trump"])
            parts[best].append("  \u2190 winning", style="bold")
            self.console.print(Text.assemble("Table: ", Text(" \u00b7 ").join(parts)))
            return
        self.say("Table:")
        for p in v["trick"]:
            who = self.name(p["seat"])
            if "cards" not in p:
                self.say(f"  {who} passed {p['count']} face down")
                continue
            verb = {"lead": "led", "beat": "beat with", "pass": "passed",
                    "molodka": "played a molodka"}[p["verb"]]
            t = Text.assemble(f"  {who} {verb} ", self.cards(p["cards"]))
            if p["verb"] == "pass":
                t.append(" face down")
            elif p["seat"] == v["top_seat"]:
                t.append("  \u2190 on top", style="bold")
            self.console.print(t)

    def hand_order(self, hand: list[str], trump: str | None) -> list[str]:
        """The hand grouped by suit, trumps first (the core's order within each suit)."""
        suits = ([trump] if trump else []) + [s for s in SUITS if s != trump]
        return [c for s in suits for c in hand if c[1] == s]

    def show_hand(self, v: dict[str, Any]) -> None:
        trump = v.get("trump")
        hand = self.hand_order(v["hand"], trump)
        numbered = v["phase"] != "trump"
        self.numbered = hand if numbered else []
        legal = set(v["legal_actions"])
        title = f"Your hand ({len(hand)}):"
        self.say((title, "bold"))
        i = 0
        for s in ([trump] if trump else []) + [x for x in SUITS if x != trump]:
            in_suit = [c for c in hand if c[1] == s]
            if not in_suit:
                continue
            label = self.suit(s) + (" (trump)" if s == trump else "")
            line = Text(f"  {label:<20}")
            for c in in_suit:
                i += 1
                dim = not self.goat and numbered and f"play:{c}" not in legal
                line.append(f"  {i}:" if numbered else " ", style="dim" if dim else "bold cyan")
                card = self.card(c)
                if dim:
                    card.stylize("dim")
                line.append_text(card)
            self.console.print(line)

    # -- the player's turn -------------------------------------------------------------------
    def ask(self, prompt: Text) -> str:
        try:
            line = self.console.input(prompt)
        except EOFError:
            self.console.print()
            raise Quit("End of input: you left the table.") from None
        if not self.interactive:  # piped answers: show them, so the transcript reads well
            self.console.print(line, markup=False, highlight=False)
        return line.strip()

    def ask_yes(self, prompt: Text) -> bool:
        while True:
            answer = self.ask(prompt).lower()
            if answer in ("y", "yes"):
                return True
            if answer in ("", "n", "no"):
                return False
            if answer in QUIT_WORDS:
                raise Quit("You left the table.")
            self.say("Answer y or n (q quits).")

    def human_turn(self) -> None:
        m = self.match
        v = m.view(self.human)
        self.show_table(v)
        while True:
            answer = self.ask(self.prompt_text(v))
            try:
                action = self.understand(answer, v)
            except ValueError as e:
                self.say(("\u2717 ", "bold red"), str(e))
                continue
            if action is None:
                continue
            try:
                m.action_id(self.human, action)
            except (IllegalAction, MalformedAction) as e:
                self.say(("\u2717 ", "bold red"), str(e))
                continue
            self.act(self.human, action)
            return

    def prompt_text(self, v: dict[str, Any]) -> Text:
        if v["phase"] == "trump":
            menu = Text("  ").join(Text.assemble((f"{i + 1}:", "bold cyan"), self.suit(s))
                                    for i, s in enumerate(self.suit_menu_for(v)))
            return Text.assemble("Call trump \u2014 ", menu, " > ")
        if not self.goat:
            return Text("Your card (number or code) > ")
        if not v["trick"]:
            return Text("Your lead: one or more cards of one suit > ")
        k = v["k"]
        extra = " (or m: molodka)" if v["can_molodka"] else ""
        return Text(f"Beat or pass {k} card{'s' if k > 1 else ''}{extra} > ")

    def suit_menu_for(self, v: dict[str, Any]) -> list[str]:
        self.suit_menu = [a.partition(":")[2] for a in v["legal_actions"]]
        self.suit_menu.sort(key=SUITS.index)
        return self.suit_menu

    def understand(self, answer: str, v: dict[str, Any]) -> str | None:
        """Action text for what the player typed, or None after a help or hint (ValueError
        when it cannot be read)."""
        low = answer.lower()
        if not low:
            return None
        if low in QUIT_WORDS:
            raise Quit("You left the table.")
        if low in HELP_WORDS:
            self.show_help(v)
            return None
        if low == "hint":
            self.show_hint(v)
            return None
        if low in ("t", "table", "show"):
            self.show_table(v)
            return None
        if ":" in answer:
            return answer
        if v["phase"] == "trump":
            return self.read_trump(low)
        words = [w for w in re.split(r"[\s,]+", answer) if w]
        if not words:
            return None
        verb = None
        if self.goat and words[0].lower() in GOAT_VERBS:
            verb = GOAT_VERBS[words.pop(0).lower()]
            if verb == "molodka" and not words:
                if not v["can_molodka"]:
                    raise ValueError("you cannot play a molodka now")
                return "molodka:" + ",".join(v["hand"])
            if not words:
                raise ValueError(f"{verb} which cards?")
        cards = [self.read_card(w) for w in words]
        if not self.goat:
            if len(cards) != 1:
                raise ValueError("play one card at a time")
            return "play:" + cards[0]
        return self.goat_action(verb, cards, v)

    def read_trump(self, low: str) -> str:
        if low.isdigit():
            i = int(low)
            if not 1 <= i <= len(self.suit_menu):
                raise ValueError(f"choose 1 to {len(self.suit_menu)}, or a suit letter")
            return "trump:" + self.suit_menu[i - 1]
        if low in SUIT_WORDS:
            return "trump:" + SUIT_WORDS[low]
        raise ValueError(f"not a suit: {low!r} (type S, H, D or C, or a number from the list)")

    def read_card(self, word: str) -> str:
        if word.isdigit():
            i = int(word)
            if not 1 <= i <= len(self.numbered):
                raise ValueError(f"no card number {i}: your cards are 1 to {len(self.numbered)}")
            return self.numbered[i - 1]
        w = word
        for sym, s in SYMBOL_TO_SUIT.items():
            w = w.replace(sym, s)
        try:
            return parse_card(w)
        except CardError:
            raise ValueError(f"not a card or a number: {word!r} (type ? for help)") from None

    def goat_action(self, verb: str | None, cards: list[str], v: dict[str, Any]) -> str | None:
        arg = ",".join(cards)
        if verb is not None:
            return f"{verb}:{arg}"
        if not v["trick"] and v["to_move"] == self.human:
            return f"lead:{arg}"
        fits = [w for w in ("beat", "pass", "molodka") if self.is_legal(f"{w}:{arg}")]
        if not fits:
            return f"pass:{arg}"  # the core says why (count, cards not held)
        if len(fits) == 1:
            return f"{fits[0]}:{arg}"
        menu = Text("  ").join(Text.assemble((f"{i + 1}:", "bold cyan"), w)
                               for i, w in enumerate(fits))
        prompt = Text.assemble(self.cards(cards), ": ", menu, "? ")
        while True:
            answer = self.ask(prompt).lower()
            if answer in QUIT_WORDS:
                raise Quit("You left the table.")
            if not answer:
                return None
            if answer.isdigit() and 1 <= int(answer) <= len(fits):
                return f"{fits[int(answer) - 1]}:{arg}"
            if GOAT_VERBS.get(answer) in fits:
                return f"{GOAT_VERBS[answer]}:{arg}"
            self.say(f"Type {' or '.join(w[0] for w in fits)} (or a number; Enter to choose "
                     "other cards).")

    def is_legal(self, action: str) -> bool:
        try:
            self.match.action_id(self.human, action)
        except (IllegalAction, MalformedAction):
            return False
        return True

    # -- help and hints ----------------------------------------------------------------------
    def show_help(self, v: dict[str, Any]) -> None:
        say = self.say
        if v["phase"] == "trump":
            say("Call trump: type a number from the list, a suit letter (S H D C) or a name "
                "(hearts), or trump:H.")
        elif not self.goat:
            say("Play a card: its number in your hand (1), its code (AS, 10h, QD) or play:AS.")
            say("You must follow the suit led if you can; otherwise any card may be played.")
        else:
            say("Type cards by number (1 3) or code (9H KH), or a full action "
                "(lead:9H,KH  beat:TH,7D  pass:6C,7S  molodka:6H,7H,8H,9H).")
            say("Leading: any cards of one suit. Answering: as many cards as were led, either "
                "beating the cards on top one for one (same suit and higher, or a trump on a "
                "non-trump) or passed face down. Put b, p or m first to say which (b 1 3); "
                "m alone plays your molodka.")
        say("Other commands: hint (a suggestion), t (the table again), ? (this help), q (quit).")
        legal = v["legal_actions"]
        shown: list[Text] = []
        if v["phase"] == "trump":
            shown = [Text(f"{i + 1}:{self.suit(x)}") for i, x in enumerate(self.suit_menu)]
        elif not self.goat:
            shown = [Text.assemble((f"{i + 1}:", "bold cyan"), self.card(c))
                     for i, c in enumerate(self.numbered) if f"play:{c}" in legal]
        else:
            order = {"lead": 0, "beat": 1, "molodka": 2, "pass": 3}
            place = {c: i for i, c in enumerate(self.numbered)}

            def key(a: str) -> tuple[int, list[int]]:
                verb, _, arg = a.partition(":")
                return order[verb], [place.get(c, 99) for c in arg.split(",")]

            for a in sorted(legal, key=key):
                verb, _, arg = a.partition(":")
                shown.append(Text.assemble(f"{verb} ", self.cards(arg.split(","))))
        more = f" \u2026 and {len(shown) - 40} more" if len(shown) > 40 else ""
        self.console.print(Text.assemble((f"Legal now ({len(shown)}): ", "bold"),
                                         Text(" \u00b7 ").join(shown[:40]), more))

    def hinter(self) -> Bot:
        if self._hinter is None:
            from taash.bots import make_bot

            self._hinter = make_bot(self.game, "hard", self.hint_seed, budget_ms=HINT_MS)
        return self._hinter

    def show_hint(self, v: dict[str, Any]) -> None:
        if v["phase"] == "trump":
            from taash.bots import trump_hint

            best = trump_hint(self.game, v["hand"]) or v.get("trump_hint") or []
            self.say("Advice: call the suit you hold most of: ",
                     (" or ".join(self.suit(s) for s in best), "bold"), ".")
        action = self.hinter().act(v)
        if not action:
            self.say("No suggestion.")
            return
        verb, _, arg = action.partition(":")
        if verb == "trump":
            self.say("The bot would call ", (self.suit(arg), "bold"), f" ({action}).")
        elif verb == "play":
            self.say("The bot would play ", self.card(arg), f" ({action}).")
        else:
            word = {"beat": "beat with", "molodka": "play the molodka"}.get(verb, verb)
            self.say(f"The bot would {word} ", self.cards(arg.split(",")), f" ({action}).")


SUIT_SYMBOL = tuple(SYMBOL_TO_SUIT)
COURT_RANKS = "23456789TJQKA"


def winning(trick: list[dict[str, Any]], trump: str | None) -> int:
    """Index of the card winning a Court Piece trick so far (for showing; the core decides).

    >>> winning([{"card": "9H"}, {"card": "KH"}, {"card": "2S"}, {"card": "AH"}], "S")
    2
    """
    best = 0
    for i, p in enumerate(trick):
        c, b = p["card"], trick[best]["card"]
        if (c[1] == b[1] and COURT_RANKS.index(c[0]) > COURT_RANKS.index(b[0])) or (
                c[1] == trump and b[1] != trump):
            best = i
    return best
