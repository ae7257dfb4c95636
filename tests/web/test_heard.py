"""A whole deal of each game played with the keyboard alone and heard through the live region
(issue 50): every move of the deal's record is said once, in order, as a sentence of the
page's language ("Bilal plays the king of spades.", "You pass 2 cards face down."), each trick's
winner is said, the trump once it is called, and on each of this seat's turns what the rules ask
("Your turn. You must follow hearts: you hold 2.").  In English and in Urdu (right to left).
Mid-deal the table has no axe violation and its accessibility tree names every card and control;
the deal's summary is read as text, the focus moved into it and back to the table."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from tests.waiting import wait_until
from tests.web.helpers import (
    Server,
    actions_sent,
    attr,
    call,
    create_table,
    seat_token,
    serve_fixed,
    state_where,
    through,
    wait_version_after,
)
from tests.web.test_a11y import assert_clean
from tests.web.test_keys import assert_focus_on_table, focus, move_to, tab_into_hand, wait_turn

pytestmark = [pytest.mark.browser, pytest.mark.slow]

I18N = Path(__file__).parents[2] / "src" / "taash" / "web" / "i18n"


class Words:
    """The page's own words of a language (its i18n file), to know what must be heard."""

    def __init__(self, lang: str, page: Any = None) -> None:
        self.lang = lang
        self.page = page  # the page's own Intl.ListFormat says how a language lists cards
        self.d = json.loads((I18N / f"{lang}.json").read_text(encoding="utf-8"))
        self.en = json.loads((I18N / "en.json").read_text(encoding="utf-8"))

    def t(self, key: str, **p: Any) -> str:
        if "n" in p:
            key = f"{key}_{'one' if p['n'] == 1 else 'other'}"
        s = str(self.d.get(key, self.en[key]))
        return re.sub(r"\{(\w+)\}", lambda m: str(p.get(m.group(1), m.group(0))), s)

    def card(self, code: str) -> str:
        name = self.t("card", rank=self.t(f"rank_{code[0]}"), suit=self.t(f"suit_{code[1]}_of"))
        return self.t("card_said", card=name[0].lower() + name[1:])

    def cards(self, codes: list[str]) -> str:
        return str(self.page.evaluate(
            "([l, xs]) => new Intl.ListFormat(l, { type: 'conjunction' }).format(xs)",
            [self.lang, [self.card(c) for c in codes]]))

    def seat(self, seat: int, base: str, **p: Any) -> str:
        if seat == 0:
            return self.t(f"{base}_you", **p)
        return self.t(f"{base}_name", name=self.t(f"bot_name_{seat % 4}"), **p)

    def move(self, seat: int, action: str) -> str:
        verb, _, rest = action.partition(":")
        codes = rest.split(",")
        if verb == "trump":
            return self.seat(seat, "ann_call", suit=self.t(f"suit_{rest}"),
                             suit_of=self.t(f"suit_{rest}_of"))
        if verb == "pass":
            return self.seat(seat, "ann_pass", n=len(codes))
        if verb == "play":
            return self.seat(seat, "ann_play", cards=self.card(rest))
        return self.seat(seat, f"ann_{verb}", cards=self.cards(codes))

    def turn(self, v: dict[str, Any]) -> str:
        """What the rules ask on this seat's turn (keys.js and the games' renderers)."""
        if v["game"] == "goat":
            if not v["trick"]:
                said = self.t("say_goat_lead")
            else:
                said = self.t("say_goat_answer", n=v["k"])
            return said + (" " + self.t("say_molodka_ready") if v.get("can_molodka") else "")
        if v["phase"] == "trump":
            return self.t("say_turn_call")
        hand = v["hand"]
        legal = [a for a in v["legal_actions"] if a.startswith("play:")]
        if not v["trick"]:
            return self.t("say_turn_lead")
        suit = v["trick"][0]["card"][1]
        held = len([c for c in hand if c[1] == suit])
        of = self.t(f"suit_{suit}_of")
        if not held:
            return self.t("say_turn_void", suit=of)
        return self.t("say_turn_follow", suit=of, n=held) if len(legal) < len(hand) \
            else self.t("say_turn_any")


# every line the live log is given, kept (the log itself keeps its last few): those said as the
# table opened, then each added
HEAR = """() => {
  const log = document.querySelector('[data-announce]');
  window.heard = [...log.children].map((p) => p.textContent);
  new MutationObserver((rs) => rs.forEach((r) => r.addedNodes.forEach(
    (n) => window.heard.push(n.textContent)))).observe(log, { childList: true });
}"""


def heard(page: Any) -> list[str]:
    return list(page.evaluate("() => window.heard"))


def wait_heard_last(page: Any, line: str) -> None:
    """The live log's latest line is `line` (bounded)."""
    try:
        page.wait_for_function("(s) => window.heard.length && window.heard.at(-1) === s", arg=line,
                               timeout=10_000)
    except Exception as e:
        raise AssertionError(f"not heard last: {line!r}; heard: {heard(page)[-4:]}") from e


# every control and card of the table as the accessibility tree has it: [role, name]
def tree_names(page: Any) -> list[tuple[str, str]]:
    snap = page.locator("main.table").aria_snapshot()
    out = []
    for line in snap.splitlines():
        m = re.match(r'\s*- (button|img|radio|checkbox|link)(?: "((?:[^"\\]|\\.)*)")?', line)
        if m:
            out.append((m.group(1), m.group(2) or ""))
    return out


def assert_tree_names_everything(page: Any, v: dict[str, Any], w: Words) -> None:
    names = tree_names(page)
    unnamed = [r for r, n in names if not n.strip()]
    assert not unnamed, (unnamed, page.locator("main.table").aria_snapshot())
    buttons = {n for r, n in names if r == "button"}
    imgs = {n for r, n in names if r == "img"}
    cap = lambda s: s[0].upper() + s[1:]  # noqa: E731
    for c in v["hand"]:
        name = w.t("card", rank=w.t(f"rank_{c[0]}"), suit=w.t(f"suit_{c[1]}_of"))
        assert name in buttons or cap(name) in buttons, (c, buttons)
    for p in v["trick"]:
        for c in ([p["card"]] if "card" in p else p.get("cards") or []):
            name = w.t("card", rank=w.t(f"rank_{c[0]}"), suit=w.t(f"suit_{c[1]}_of"))
            assert name in imgs, (c, imgs)
    # every button on the page's table is in the tree by its name
    shown = page.evaluate("""() => [...document.querySelectorAll('main.table button')]
      .filter((b) => b.getClientRects().length && getComputedStyle(b).visibility !== 'hidden'
        && !b.closest('[aria-hidden="true"], [hidden]')).length""")
    assert len([n for r, n in names if r == "button"]) >= shown


def check_summary(page: Any) -> None:
    """The deal's (or the match's) summary: a dialog named by its title, described by its text,
    the focus in it; closed by the keyboard, the focus back on the table."""
    dlg = page.locator("dialog[open]")
    dlg.wait_for()
    said = page.evaluate("""() => {
      const d = document.querySelector('dialog[open]');
      const by = (a) => (d.getAttribute(a) || '').split(' ')
        .map((id) => document.getElementById(id)).filter(Boolean)
        .map((e) => e.textContent).join(' ');
      return { name: by('aria-labelledby'), text: by('aria-describedby'),
               focused: d.contains(document.activeElement), kind: d.dataset.dialog };
    }""")
    assert said["kind"] in ("deal-summary", "match-summary"), said
    assert said["name"] and said["focused"], said
    head = dlg.locator(".headline").first.inner_text()
    assert head and head in said["text"], said
    # Continue (a deal's), or Escape (the match's first button asks for a rematch)
    page.keyboard.press("Enter" if said["kind"] == "deal-summary" else "Escape")
    page.wait_for_function("() => !document.querySelector('dialog[open]')")
    page.wait_for_function("() => document.activeElement !== document.body")
    assert focus(page)["inTable"]


def play_deal(page: Any, server: Server, tid: str, token: str, w: Words, *,
              check_tree: bool = True, want_pass: bool = False) -> dict[str, Any]:
    """Play this seat's turns of the first deal with the keys alone until its summary opens;
    on each turn the rule is heard last.  Returns what was done."""
    done: dict[str, Any] = {"turns": 0, "passed": False, "molodka": False, "tree": False,
                            "rules": set()}
    for _ in range(200):
        wait_turn(page)
        if page.locator("dialog[open]").count():
            break
        v = call(server.base, "GET", f"/api/tables/{tid}/view", token=token)
        if v["to_move"] != 0 or v["over"]:
            page.wait_for_timeout(50)
            continue
        wait_heard_last(page, w.turn(v))
        done["rules"].add(w.turn(v))
        assert_focus_on_table(page)
        done["turns"] += 1
        if check_tree and not done["tree"] and v["trick"] and v["phase"] == "play":
            assert_tree_names_everything(page, v, w)
            assert_clean(page)
            done["tree"] = True
        before = int(attr(page, "data-version") or -1)
        if v["phase"] == "trump":
            for _ in range(30):
                if (focus(page)["action"] or "").startswith("trump:"):
                    break
                page.keyboard.press("Tab")
            else:
                raise AssertionError("Tab does not reach the trump call")
            page.keyboard.press("Enter")
        elif v["game"] == "goat":
            legal = v["legal_actions"]
            if v.get("can_molodka") and any(a.startswith("molodka:") for a in legal):
                page.keyboard.press("m")
                done["molodka"] = True
            else:
                passes = [a for a in legal if a.startswith("pass:")]
                others = [a for a in legal if not a.startswith(("pass:", "molodka:"))]
                pick = passes[0] if passes and (not others or (want_pass and not done["passed"])) \
                    else others[0]
                verb, cards = pick.split(":")[0], pick.split(":")[1].split(",")
                done["passed"] = done["passed"] or verb == "pass"
                if not focus(page)["inHand"]:
                    tab_into_hand(page)
                for c in cards:
                    move_to(page, c)
                    page.keyboard.press("Enter")
                    page.wait_for_selector(f"[data-hand] [data-card='{c}'][aria-pressed='true']")
                page.keyboard.press({"lead": "l", "beat": "b", "pass": "p"}[verb])
        else:
            legal = [a[5:] for a in v["legal_actions"] if a.startswith("play:")]
            if not focus(page)["inHand"]:
                tab_into_hand(page)
            move_to(page, legal[0])
            page.keyboard.press("Enter")
        wait_version_after(page, before)
    else:
        raise AssertionError("the deal did not end")
    return done


def assert_deal_heard(page: Any, server: Server, tid: str, w: Words, seats: int,
                      rules: set[str]) -> None:
    """Every move of the deal's record said once, in order (those made before the page opened
    aside: a bot's at once); each trick's winner said; the trump said once where it was called
    in front of the page."""
    record = call(server.base, "GET", f"/api/tables/{tid}/record")
    actions = record["deals"][0]["actions"]
    want = [w.move(a["seat"], a["action"]) for a in actions]
    lines = heard(page)
    winners = {w.seat(s, "ann_trick") for s in range(seats)}
    trumps = {w.t("ann_trump", suit=w.t(f"suit_{s}")) for s in "SHDC"}
    moves = [x for x in lines if x not in winners and x not in trumps and x not in rules]
    assert moves == want[len(want) - len(moves):], (moves, want)
    assert len(want) - len(moves) < seats, (len(want), len(moves))  # only the bots' first moves
    tricks = sum(1 for x in lines if x in winners)
    assert tricks >= 3, lines
    if any(a["action"].startswith("trump:") for a in actions[len(want) - len(moves):]):
        assert len([x for x in lines if x in trumps]) == 1, lines


def open_table(new_page: Any, server: Server, game: str, seats: int, lang: str,
               **options: Any) -> tuple[Any, str, str]:
    bot = {"type": "bot", "level": "easy"}
    t = create_table(server.base, game, [{"type": "human"}] + [bot] * (seats - 1), **options)
    tid, token = t["id"], t["seats"][0]["token"]
    page = new_page("desktop", server.base)
    page.add_init_script(f"localStorage.setItem('taash.lang', '{lang}')")
    page.goto(f"/t/{tid}?seat=0&token={token}")
    page.wait_for_selector("main.table[data-version]")
    page.evaluate(HEAR)
    if page.locator("[data-hand] [data-card]").count():
        tab_into_hand(page)
    return page, tid, seat_token(page, tid, 0)


# the game, its seats and the table's settings: seat 0 sees the first deal's call (two-player:
# it is seat 0's) or the first Goat lead dealt in front of it
TABLES = {"court-piece": (4, {"first_seat": 3}),
          "court-piece-2p": (2, {"options": {"target": 1}, "first_seat": 0}),
          "goat": (4, {"first_seat": 3})}


@pytest.mark.parametrize("lang", ["en", "ur"])
@pytest.mark.parametrize("game", list(TABLES))
def test_a_deal_by_keyboard_alone_is_heard(new_page: Any, server: Server, game: str,
                                          lang: str) -> None:
    seats, settings = TABLES[game]
    page, tid, token = open_table(new_page, server, game, seats, lang, **settings)
    assert page.evaluate("() => [document.documentElement.lang, document.documentElement.dir]") \
        == [lang, "rtl" if lang == "ur" else "ltr"]
    w = Words(lang, page)
    done = play_deal(page, server, tid, token, w, want_pass=game == "goat")
    assert done["tree"] and done["turns"] >= 3, done
    assert done["passed"] or game != "goat", done  # a pass face down, by the keys
    assert_deal_heard(page, server, tid, w, seats, done["rules"])
    if game == "court-piece-2p":
        # the call was this seat's, in front of the page: "You call …", then what is trump
        lines = heard(page)
        assert any(w.move(0, f"trump:{s}") in lines for s in "SHDC"), lines
    check_summary(page)
    assert page.js_errors == []


def test_a_goat_molodka_is_played_with_m(new_page: Any, server: Server) -> None:
    """A seat holding a molodka (four cards of a suit) plays it with M, from the keyboard, and
    is told it may as its turn is said (a dealt molodka is not to be had on demand at a live
    table: a seeded state served as the table's view)."""
    m, seat = state_where("goat", lambda m, s: any(a.startswith("molodka:")
                                                   for a in m.view(s)["legal_actions"]),
                          seeds=2000)
    v = m.view(seat)
    posted: list[Any] = []
    page = new_page("desktop", server.base)
    serve_fixed(page, "goat", v, posted)
    page.goto(f"/t/f?seat={seat}&token=x")
    page.wait_for_selector("main.table[data-version='7'][data-your-turn='true']")
    page.evaluate(HEAR)
    assert heard(page)[-1].endswith(Words("en").t("say_molodka_ready")), heard(page)
    tab_into_hand(page)
    sent = actions_sent(page)  # the moves the page sends
    page.keyboard.press("m")
    wait_until(through(page, lambda: sent), timeout=10, what="the molodka posted")
    molodka = next(a for a in v["legal_actions"] if a.startswith("molodka:"))
    assert [p["action"] for p in sent] == [molodka], sent
