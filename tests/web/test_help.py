"""The rules in the page (issue 27, "Help"): each game's rules in every language, written for a
player, opened from the home page and from the table's menu at the part that matters, readable
at 360 px, by keyboard and screen reader (a dialog with a heading, the focus moved in and
brought back, Escape closing it), and loaded only when asked for."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from tests.web.helpers import ROOT, Server, press, serve_fixed, state_where

WEB = ROOT / "src" / "taash" / "web"
LANGS = ["en", "ur", "hi", "ru"]
GAMES = ["court-piece", "court-piece-2p", "goat"]
# what a player must be able to read about each game (the brief's list, by section id)
TOPICS = {
    "court-piece": {"deal", "trump", "follow", "tricks", "win", "coat", "double-sar", "ace-rule"},
    "court-piece-2p": {"deal", "trump", "follow", "tricks", "win", "court", "match"},
    "goat": {"cards", "deal", "lead", "beat-pass", "molodka", "draw", "count", "defeat", "eggs",
             "goat"},
}
# each translation is written in its own script
SCRIPT = {"ur": re.compile(r"[\u0600-\u06FF]"), "hi": re.compile(r"[\u0900-\u097F]"),
          "ru": re.compile(r"[\u0400-\u04FF]")}


def rules(lang: str, game: str) -> dict[str, Any]:
    data = json.loads((WEB / "help" / lang / f"{game}.json").read_text(encoding="utf-8"))
    assert isinstance(data, dict)
    return data


def words(lang: str) -> dict[str, str]:
    data = json.loads((WEB / "i18n" / f"{lang}.json").read_text(encoding="utf-8"))
    assert isinstance(data, dict)
    return data


@pytest.mark.parametrize("game", GAMES)
def test_every_language_has_the_same_sections(game: str) -> None:
    en = rules("en", game)
    assert en["game"] == game
    ids = [s["id"] for s in en["sections"]]
    assert TOPICS[game] <= set(ids) and len(ids) == len(set(ids))
    for lang in LANGS:
        d = rules(lang, game)
        assert d["game"] == game
        assert [s["id"] for s in d["sections"]] == ids, lang
        for mine, theirs in zip(d["sections"], en["sections"], strict=True):
            assert mine["heading"].strip() and mine["paragraphs"], (lang, mine["id"])
            assert len(mine["paragraphs"]) == len(theirs["paragraphs"]), (lang, mine["id"])
            for p in mine["paragraphs"]:
                assert 20 <= len(p) <= 400, (lang, mine["id"], p)  # short paragraphs
            if lang != "en":  # translated, not copied
                assert mine["heading"] != theirs["heading"], (lang, mine["id"])
                for p, q in zip(mine["paragraphs"], theirs["paragraphs"], strict=True):
                    assert p != q and SCRIPT[lang].search(p), (lang, mine["id"], p)


def test_the_rules_are_package_data() -> None:
    """pyproject's package-data takes web/**/*: every rules file is under web/ (no other
    folder to name), and each is plain JSON of the game it is named for."""
    text = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    assert '"web/**/*"' in text
    files = sorted((WEB / "help").rglob("*.json"))
    assert len(files) == len(LANGS) * len(GAMES)


OVERFLOW = """() => {
  const w = document.documentElement.clientWidth;
  const out = [];
  const page = document.documentElement.scrollWidth;
  if (page > w) out.push('page ' + page);
  const d = document.querySelector('dialog[open]');
  if (d) {
    if (d.scrollWidth > d.clientWidth) out.push('dialog ' + d.scrollWidth + '>' + d.clientWidth);
    const box = d.getBoundingClientRect();
    if (box.left < 0 || box.right > w) out.push('dialog off the screen');
    for (const el of d.querySelectorAll('h2, h3, h4, p, button')) {
      const r = el.getBoundingClientRect();
      if (r.right > box.right + 0.5 || r.left < box.left - 0.5)
        out.push(el.tagName + ' ' + el.textContent.slice(0, 30));
    }
  }
  return out;
}"""
# the open dialog: its game, the focused element (in it?), its section headings
SHOWN = """() => {
  const d = document.querySelector('dialog[open][data-dialog="rules"]');
  if (!d) return null;
  const a = document.activeElement;
  const box = d.getBoundingClientRect();
  const r = a.getBoundingClientRect();
  return {
    game: d.dataset.game,
    labelled: document.getElementById(d.getAttribute('aria-labelledby')).textContent,
    focusInside: d.contains(a), focusId: a.id,
    focusVisible: r.top >= box.top - 1 && r.bottom <= box.bottom + 1,
    sections: [...d.querySelectorAll('[data-help-section]')].map((s) => s.dataset.helpSection),
    headings: [...d.querySelectorAll('[data-help-section] h4')].map((h) => h.textContent),
  };
}"""


@pytest.mark.browser
@pytest.mark.slow
@pytest.mark.parametrize("lang", LANGS)
def test_rules_from_home_and_from_the_table_menu(new_page: Any, server: Server,
                                                 lang: str) -> None:
    page = new_page("phone", server.base)
    page.set_viewport_size({"width": 360, "height": 740})
    page.add_init_script(f"localStorage.setItem('taash.lang', '{lang}')")
    asked: list[str] = []
    page.on("request", lambda r: asked.append(r.url))
    ui = words(lang)
    page.goto("/")
    page.wait_for_selector(f"html[lang='{lang}'] [data-page='home']")
    assert not [u for u in asked if "/help" in u], "the rules are not part of the first load"
    # from home: the rules of the game chosen there
    press(page, "[data-game-choice='goat']")
    rules_button = page.locator("[data-section='new-game'] [data-action='rules']")
    assert rules_button.inner_text() == ui["rules"]
    rules_button.focus()
    page.keyboard.press("Enter")
    page.wait_for_selector("dialog[open][data-dialog='rules'][data-game='goat']")
    shown = page.evaluate(SHOWN)
    want = rules(lang, "goat")
    assert shown["labelled"] == ui["how_to_play"]
    assert shown["focusInside"] and shown["focusId"] == "help-title"
    assert shown["sections"] == [s["id"] for s in want["sections"]]
    assert shown["headings"] == [s["heading"] for s in want["sections"]]
    assert any(u.endswith(f"/assets/help/{lang}/goat.json") for u in asked)
    assert page.evaluate(OVERFLOW) == []
    # another game's rules from the dialog's own buttons
    press(page, "[data-help-game='court-piece']")
    page.wait_for_selector("dialog[open][data-dialog='rules'][data-game='court-piece']")
    headings = [s["heading"] for s in rules(lang, "court-piece")["sections"]]
    assert page.evaluate(SHOWN)["headings"] == headings
    assert page.evaluate(OVERFLOW) == []
    page.keyboard.press("Escape")
    page.wait_for_selector("dialog[data-dialog='rules']", state="detached")
    assert page.evaluate("() => document.activeElement.dataset.action") == "rules"

    # from the table's menu: a Goat trick to answer opens the rules at beating or passing
    m, seat = state_where("goat", lambda m, s: bool(m.view(s)["trick"])
                          and not m.view(s)["can_molodka"])
    serve_fixed(page, "goat", m.view(seat), [])
    page.goto(f"/t/f?seat={seat}&token=x")
    page.wait_for_selector("main.table[data-your-turn='true']")
    press(page, "[data-action='menu']")
    page.locator("dialog[data-dialog='menu'] [data-action='rules']").click()
    page.wait_for_selector("dialog[open][data-dialog='rules'][data-game='goat']")
    shown = page.evaluate(SHOWN)
    assert shown["focusId"] == "help-beat-pass" and shown["focusVisible"], shown
    assert page.locator("dialog[data-dialog='menu']").count() == 0
    assert page.evaluate(OVERFLOW) == []
    page.locator("dialog[data-dialog='rules'] [data-action='close']").click()
    page.wait_for_selector("dialog[data-dialog='rules']", state="detached")
    assert page.evaluate("() => document.activeElement.dataset.action") == "menu"
    assert page.js_errors == []


@pytest.mark.browser
@pytest.mark.slow
def test_the_table_menu_opens_double_sar_at_the_pile(new_page: Any, server: Server) -> None:
    """Court Piece with double sar, in play: the rules open at the pile."""
    from taash.games import new_match

    m = new_match("court-piece", {"sar": "double"}, seed=4)
    m.apply(m.to_move, m.legal_actions(m.to_move)[0])  # trump called: the play begins
    seat = m.to_move
    page = new_page("desktop", server.base)
    serve_fixed(page, "court-piece", m.view(seat), [])
    page.goto(f"/t/f?seat={seat}&token=x")
    page.wait_for_selector("main.table[data-phase='play']")
    press(page, "[data-action='menu']")
    press(page, "dialog[data-dialog='menu'] [data-action='rules']")
    page.wait_for_selector("dialog[open][data-dialog='rules'][data-game='court-piece']")
    shown = page.evaluate(SHOWN)
    assert shown["focusId"] == "help-double-sar" and shown["focusVisible"], shown
    assert page.js_errors == []


@pytest.mark.browser
@pytest.mark.slow
@pytest.mark.parametrize("scheme", ["dark", "light"])
def test_the_rules_dialog_has_no_violations(new_page: Any, server: Server, scheme: str) -> None:
    from tests.web.test_a11y import assert_clean

    page = new_page("phone", server.base)
    page.emulate_media(color_scheme=scheme)
    page.goto("/")
    press(page, "[data-section='new-game'] [data-action='rules']")
    page.wait_for_selector("dialog[open][data-dialog='rules'][data-game='court-piece']")
    assert_clean(page)
