"""Issue 43, nothing truncated and nothing overlapping: home with a table, a table mid-trick, a
profile and a review, in each of the page's languages, at phone (390x844) and desktop
(1280x800) size.  On each, no visible element's box leaves its parent's, no text that matters
(a game's name, a button, a label) is cut by an ellipsis or its box, and no two siblings in
the flow of the page overlap.  The exceptions are named below, each with its reason.  The
screenshots are saved (``TAASH_SCREENSHOTS=1`` saves them into docs/screenshots)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.web.helpers import Server, press, serve_fixed, state_where
from tests.web.test_a11y import HISTORY

pytestmark = [pytest.mark.browser, pytest.mark.slow]

LANGS = ["en", "ur", "hi", "ru"]
SIZES = {"phone": (390, 844), "desktop": (1280, 800)}

# Elements whose content may leave their box, and why.
MAY_OVERFLOW = {
    ".sr-only": "read by screen readers only: a 1 px box by design",
    ".scores .btn.sheet": "a 44 px target reaching past its row, which stays as tall as its chips",
}
# Elements that may cut their text with an ellipsis, and why.
MAY_ELLIPSIS = {
    ".seat .name": "a player's own name, as long as they made it: the full name is its title",
}
# In-flow siblings that may overlap, and why.
MAY_OVERLAP = {
    ".card": "cards fan over one another in a hand and on the felt",
    ".mini-hand .backs i": "a seat's card backs fan over one another",
}

CHECK = """([mayOverflow, mayEllipsis, mayOverlap]) => {
  const out = { escapes: [], cut: [], overlaps: [] };
  const shown = (el) => {
    const s = getComputedStyle(el);
    if (s.display === 'none' || s.visibility === 'hidden' || s.display === 'contents') return false;
    const r = el.getBoundingClientRect();
    if (!(r.width > 0 && r.height > 0) || el.closest('[hidden], dialog:not([open])')) return false;
    // the inside of a closed <details>, all but its summary, is not shown
    const d = el.closest('details:not([open])');
    return !d || el === d || !!el.closest('details:not([open]) > summary');
  };
  // the box an element lies in: its parent's, past any parent with no box of its own
  const boxOf = (el) => {
    let p = el.parentElement;
    while (p && getComputedStyle(p).display === 'contents') p = p.parentElement;
    return p;
  };
  const named = (el, list) => list.some((sel) => el.matches(sel) || el.closest(sel));
  const desc = (el) => {
    const cls = typeof el.className === 'string' && el.className
      ? '.' + el.className.trim().split(/\\s+/).join('.') : '';
    const data = [...el.attributes].filter((a) => a.name.startsWith('data-')).slice(0, 2)
      .map((a) => `[${a.name}${a.value ? `=${a.value.slice(0, 20)}` : ''}]`).join('');
    const text = (el.textContent || '').trim().slice(0, 30);
    return `${el.tagName.toLowerCase()}${cls}${data} "${text}"`;
  };
  const clips = (el) => {
    const s = getComputedStyle(el);
    return s.overflowX !== 'visible' || s.overflowY !== 'visible';
  };
  const positioned = (el) => ['absolute', 'fixed'].includes(getComputedStyle(el).position);
  // an SVG's inside is drawn, not laid out: the svg element stands for it
  const els = [...document.body.querySelectorAll('*')]
    .filter((el) => !(el instanceof SVGElement && el.tagName !== 'svg') && shown(el));
  for (const el of els) {
    const p = boxOf(el);
    if (!p || p === document.body || named(el, mayOverflow)) continue;
    // a box laid over the page (a dialog, a toast, a tip), or inside one that scrolls or clips
    if (positioned(el) || clips(p)) continue;
    const a = el.getBoundingClientRect(), b = p.getBoundingClientRect();
    // a run of text in a line is as tall as its font, not its line: Urdu's Nastaliq rises a
    // few pixels above and below its line box, and nothing of it is cut; across, it counts
    const across = Math.max(b.left - a.left, a.right - b.right);
    const past = getComputedStyle(el).display === 'inline' ? across
      : Math.max(across, b.top - a.top, a.bottom - b.bottom);
    if (past > 1) out.escapes.push(`${desc(el)} leaves ${desc(p)} by ${Math.round(past)} px`);
  }
  for (const el of els) {
    if (named(el, mayEllipsis) || !el.childNodes.length) continue;
    const s = getComputedStyle(el);
    if (!clips(el) && s.textOverflow !== 'ellipsis') continue;
    if (['auto', 'scroll'].includes(s.overflowX) || el.matches('select, input, textarea')) continue;
    if (![...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim())) continue;
    if (el.scrollWidth > el.clientWidth + 1) {
      out.cut.push(`${desc(el)}: ${el.scrollWidth} > ${el.clientWidth}`);
    }
  }
  // an empty field's placeholder says what goes in it: it is cut if it is wider than the field
  const ctx = document.createElement('canvas').getContext('2d');
  const fields = els.filter((e) => e.matches('[placeholder]') && !e.value);
  for (const el of fields) {
    const s = getComputedStyle(el);
    ctx.font = `${s.fontStyle} ${s.fontWeight} ${s.fontSize} ${s.fontFamily}`;
    const room = el.clientWidth - parseFloat(s.paddingLeft) - parseFloat(s.paddingRight);
    const need = ctx.measureText(el.placeholder).width;
    if (need > room + 1) {
      const by = `${Math.round(need)} > ${Math.round(room)}`;
      out.cut.push(`${desc(el)} placeholder "${el.placeholder}": ${by}`);
    }
  }
  const inFlow = (el) => !positioned(el) && getComputedStyle(el).display !== 'inline'
    && !named(el, mayOverlap);
  for (const p of els) {
    const kids = [...p.children].filter((c) => els.includes(c) && inFlow(c));
    for (let i = 0; i < kids.length; i++) for (let j = i + 1; j < kids.length; j++) {
      const a = kids[i].getBoundingClientRect(), b = kids[j].getBoundingClientRect();
      const w = Math.min(a.right, b.right) - Math.max(a.left, b.left);
      const h = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
      if (w > 1 && h > 1) {
        const by = `${Math.round(w)}x${Math.round(h)}`;
        out.overlaps.push(`${desc(kids[i])} and ${desc(kids[j])} overlap ${by}`);
      }
    }
  }
  return out;
}"""


def findings(page: Any) -> list[str]:
    r = page.evaluate(CHECK, [list(MAY_OVERFLOW), list(MAY_ELLIPSIS), list(MAY_OVERLAP)])
    return [f"{k}: {x}" for k in ("escapes", "cut", "overlaps") for x in r[k]]


def look(page: Any, screenshots: Path, name: str, found: dict[str, list[str]]) -> None:
    """The page at each size: its findings, and its screenshot."""
    for size, (w, h) in SIZES.items():
        page.set_viewport_size({"width": w, "height": h})
        page.wait_for_function("([w]) => document.documentElement.clientWidth <= w", arg=[w])
        page.screenshot(path=str(screenshots / f"layout-{name}-{size}.png"), full_page=True)
        for f in findings(page):
            found.setdefault(f"{name} {size}", []).append(f)


def review_record() -> dict[str, Any]:
    from taash.record import random_record

    rec = random_record("court-piece", {"sar": "double"}, seed=11, deals=1)
    rec["seats"] = [{"type": "human", "name": "Zara Rahimtoola"},
                    {"type": "bot", "level": "hard"},
                    {"type": "human", "name": "Dmitri Alexandrovich"},
                    {"type": "bot", "level": "easy"}]
    return dict(rec)


@pytest.mark.parametrize("lang", LANGS)
def test_nothing_truncated_nothing_overlapping(new_page: Any, server: Server,
                                               screenshots: Path, lang: str) -> None:
    from tests.web.test_first_hour_seats import PROFILE
    from tests.web.test_friends_notice import call as page_call

    page = new_page("desktop", server.base)
    page.add_init_script(f"localStorage.setItem('taash.lang', '{lang}')")
    found: dict[str, list[str]] = {}
    # home, with a table of this player's
    page.goto("/")
    page.locator("[data-player-name]").wait_for()
    status, _ = page_call(page, "POST", "/api/tables", {
        "game": "court-piece", "live": False,
        "seats": [{"type": "human"}] + [{"type": "bot", "level": "easy"}] * 3})
    assert status == 201
    page.reload()
    page.locator("[data-my-table]").first.wait_for()
    look(page, screenshots, f"home-{lang}", found)
    # a table mid-trick, four seats, the cards on the felt
    m, seat = state_where("court-piece", lambda m, s: len(m.view(s)["trick"]) >= 2)
    serve_fixed(page, "court-piece", m.view(seat), [])
    page.goto(f"/t/f?seat={seat}&token=x")
    page.wait_for_selector("main.table[data-version='7'][data-your-turn='true']")
    look(page, screenshots, f"table-{lang}", found)
    # a profile with ratings, stats and matches
    page.route("**/api/players/pz", lambda route: route.fulfill(json=PROFILE))
    page.route("**/api/players/pz/history**", lambda route: route.fulfill(json=HISTORY))
    page.goto("/p/pz")
    page.locator("[data-match='tz']").wait_for()
    look(page, screenshots, f"profile-{lang}", found)
    # a review, mid-trick, every hand open
    page.goto("/review")
    page.fill("[data-field='record']", json.dumps(review_record()))
    press(page, "[data-action='review-record']")
    page.wait_for_selector("main.review [data-review-at]")
    for _ in range(3):
        press(page, "[data-action='review-forward']")
    page.locator("[data-review-table] .review-play").nth(1).wait_for()
    look(page, screenshots, f"review-{lang}", found)
    assert not found, "\n".join(f"{k}:\n  " + "\n  ".join(v) for k, v in found.items())
    assert page.js_errors == []
