"""Issue 43, the review in plain words: the seats by their players' names (never "Seat 2"), the
hard bot's sampled gain said as what it means for the player, and an analysis that shows what
it is doing from its first second, before the server has counted anything."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from tests.waiting import wait_until
from tests.web.helpers import Server, call, create_table, press

pytestmark = [pytest.mark.browser, pytest.mark.slow]


def finished_table(base: str) -> tuple[str, dict[str, Any]]:
    """A two-player table of Zara (seat 0) against a hard bot, its one deal played out by Zara
    through the API: its id and its review as the server answers it."""
    t = create_table(base, "court-piece-2p", [{"type": "human", "name": "Zara"},
                                              {"type": "bot", "level": "hard"}],
                     options={"target": 1})
    tid, token = t["id"], t["seats"][0]["token"]
    rng = random.Random(5)

    def mine() -> Any:  # the view once it is Zara's turn or the match is over
        v = call(base, "GET", f"/api/tables/{tid}/view", token=token)
        return v if v["over"] or (v["to_move"] == 0 and v["legal_actions"]) else None

    n = 0
    while not (v := wait_until(mine, timeout=30, every=0.2, what="Zara's turn"))["over"]:
        n += 1
        call(base, "POST", f"/api/tables/{tid}/actions",
             {"action": rng.choice(v["legal_actions"]), "id": f"z{n}"}, token)
    return tid, call(base, "GET", f"/api/tables/{tid}/review")


def analysis_of(review: dict[str, Any], step: int) -> dict[str, Any]:
    """A finished analysis as the server shapes it, saying of one of Zara's plays that the
    hard bot would have played another card, its choice scoring 0.1234 more over 24 samples."""
    s = review["steps"][step]
    other = "play:2C" if s["action"] != "play:2C" else "play:3C"
    return {"deal": 0, "solver": None, "solver_time": 2.0, "table": None, "notes": [],
            "actions": [{"step": step, "trick": s["trick"], "seat": 0, "action": s["action"],
                         "open": None,
                         "known": {"hard": other, "matched": False, "samples": 24,
                                   "gain": 0.1234,
                                   "scores": {other: 0.6, s["action"]: 0.4766}}}],
            "seats": [{"seat": seat, "actions": 13, "blunders": 0, "mistakes": 0, "best": 0,
                       "judged": 0, "matched_hard": 9} for seat in (0, 1)]}


def test_the_review_names_the_players_and_says_what_the_analysis_means(
        new_page: Any, server: Server) -> None:
    tid, review = finished_table(server.base)
    assert [p["name"] for p in review["players"]] == ["Zara", None]
    step = next(s["step"] for s in review["steps"] if s["seat"] == 0 and s["verb"] == "play")

    # the analysis as a server under load answers it: "running", nothing counted for a while,
    # then a count, then done (the page's own requests, answered by the test)
    stage = {"now": "starting"}
    job = {"key": "k1", "table": tid, "deal": 0, "error": None, "analysis": None}

    def analysis(route: Any) -> None:
        if route.request.method == "GET" and stage["now"] == "none":
            route.fulfill(json={**job, "status": "none", "done": 0, "total": 0})
        elif stage["now"] == "done":
            route.fulfill(json={**job, "status": "done", "done": 26, "total": 26,
                                "analysis": analysis_of(review, step)})
        else:
            done, total = (0, 0) if stage["now"] == "starting" else (3, 26)
            route.fulfill(json={**job, "status": "running", "done": done, "total": total})

    page = new_page("phone", server.base)
    stage["now"] = "none"
    page.route(f"**/api/tables/{tid}/analysis**", analysis)
    page.route("**/api/analyses/k1", analysis)
    page.goto(f"/review?table={tid}&seat=0")
    page.wait_for_selector("main.review [data-review-at]")
    page.locator("[data-action='review-analyse']").wait_for()

    # the seats by name: the player as themself, the bot as the table called it, its level
    hands = page.locator("[data-review-hand] .who").all_inner_texts()
    assert hands == ["Zara (You)", "Bilal (Bot · Hard)"], hands
    text = page.locator("main.review").inner_text()
    assert "Seat" not in text, text
    title = page.locator(".review-title").inner_text()  # its dealer, whoever it was
    assert any(name in title for name in ("Zara (You)", "Bilal (Bot · Hard)")), title
    assert any(name in page.locator("[data-review-call]").inner_text()
               for name in ("Zara (You)", "Bilal (Bot · Hard)"))

    # asked for: at once a word of what is under way, and the seconds going on while the server
    # has counted nothing (it tells the first count only once the first play is looked at)
    stage["now"] = "starting"
    press(page, "[data-action='review-analyse']")
    progress = page.locator("[data-review-progress]")
    progress.wait_for()
    assert "Starting the analysis" in progress.inner_text(), progress.inner_text()
    assert "…" not in progress.inner_text()
    page.wait_for_function("""() => /^2 s so far/.test(
        (document.querySelector('[data-review-elapsed]') || {}).textContent || '')""")
    how = page.locator("[data-review-analysis] .sub").inner_text()
    assert "hard bot plays the deal out" in how, how
    stage["now"] = "counting"
    page.wait_for_function("""() => (document.querySelector('[data-review-progress]') || {})
        .textContent === 'Analysing: 3 of 26 plays'""")
    assert page.locator("[data-review-analysis] progress").get_attribute("value") == "3"
    stage["now"] = "done"
    page.locator("[data-summary-seat='0']").wait_for()
    assert page.locator("[data-summary-seat='0'] b").inner_text() == "Zara (You)"
    assert "Bilal (Bot · Hard)" in page.locator("[data-summary-seat='1']").inner_text()

    # the hard bot's gain at Zara's play, in words: no bare "+0.12 over 24 samples"
    last = page.locator("[data-field='jump'] option").count()
    for _ in range(len(review["positions"])):
        if page.locator(f".review-play[data-step='{step}']").count():
            break
        press(page, "[data-action='review-forward']")
    known = page.locator(f".review-play[data-step='{step}'] [data-analysis='known']")
    said = known.inner_text()
    assert ("the hard bot's choice scores 0.12 more on average than this play (a won deal"
            " scores 1; deals tried that fit what the player knew: 24)") in said, said
    assert "+0.12" not in said and "samples" not in said, said
    assert last > 1
    assert page.js_errors == []


@pytest.mark.parametrize("lang,bot", [("ru", "Билал (Бот · Сильный)"),
                                      ("ur", "بلال (بوٹ · مشکل)")])
def test_a_pasted_record_names_its_seats_in_each_language(new_page: Any, server: Server,
                                                          lang: str, bot: str) -> None:
    """A record pasted in names its seats as it carries them, in the page's language; one
    without seats says where each sat (North, South), not a number."""
    from taash.record import random_record

    rec = random_record("court-piece-2p", {"target": 1}, seed=3, deals=1)
    rec["seats"] = [{"type": "human", "name": "Zara"}, {"type": "bot", "level": "hard"}]
    page = new_page("desktop", server.base)
    page.add_init_script(f"localStorage.setItem('taash.lang', '{lang}')")
    page.goto("/review")
    page.fill("[data-field='record']", json.dumps(rec))
    press(page, "[data-action='review-record']")
    page.wait_for_selector("main.review [data-review-at]")
    hands = page.locator("[data-review-hand] .who").all_inner_texts()
    assert hands == ["Zara", bot], hands
    del rec["seats"]
    page.goto("/review")
    page.fill("[data-field='record']", json.dumps(rec))
    press(page, "[data-action='review-record']")
    page.wait_for_selector("main.review [data-review-at]")
    hands = page.locator("[data-review-hand] .who").all_inner_texts()
    places = {"ru": ["Север", "Юг"], "ur": ["شمال", "جنوب"]}[lang]
    assert hands == places, hands
    assert page.js_errors == []
