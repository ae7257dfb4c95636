"""docs/API.md's schema section is the one ``taash.games.schema`` writes from the core's types,
and what the core hands out fits those types (random matches of every game)."""

from __future__ import annotations

import os
import random
from pathlib import Path

import pytest

from taash.games import game_class
from taash.games.schema import END, START, fits_one, problems, update
from taash.games.types import SCHEMAS

DOC = Path(__file__).resolve().parents[1] / "docs" / "API.md"
CASES = [("court-piece", {"sar": "single", "session_end": {"deals": 2}}),
         ("court-piece", {"sar": "double", "ace_rule": True, "trump_rule": "most-held",
                          "session_end": {"deals": 2}}),
         ("court-piece-2p", {"target": 3}), ("goat", {"target": 4})]


def test_api_doc_schema_is_current() -> None:
    text = DOC.read_text(encoding="utf-8")
    want = update(text)
    if os.environ.get("TAASH_UPDATE_DOCS") == "1":
        DOC.write_text(want, encoding="utf-8")
        text = want
    assert START in text and END in text
    assert text == want, ("docs/API.md's schema section is stale: run "
                          "TAASH_UPDATE_DOCS=1 pytest tests/test_api_doc.py")


@pytest.mark.parametrize(("game", "options"), CASES, ids=lambda c: str(c))
def test_views_events_and_summaries_fit_their_types(game: str, options: object) -> None:
    schema = SCHEMAS[game]
    seen: set[str] = set()
    for seed in range(3):
        rng = random.Random(seed)
        m = game_class(game).new_match(options, rng=rng)
        for step in range(4000):
            if step % 7 == 0 or m.is_over():
                for seat in range(m.num_seats):
                    assert problems(m.view(seat), schema["view"][0]) == [], (seat, step)
                assert problems(m.public_view(), schema["public_view"][0]) == []
                assert problems(m.summary(), schema["summary"][0]) == []
            if m.is_over():
                break
            choices = [(s, a) for s in m.actors() for a in m.legal_ids(s)]
            s, a = rng.choice(choices)
            for e in m.apply(s, m.action_text(a)):
                seen.add(e["type"])
                assert fits_one(e, schema["events"]) == [], e
        assert m.is_over()
    assert seen == {"action", "trick", "deal_over", "match_over"}


def test_problems_says_what_is_wrong() -> None:
    from taash.games.types import GoatPlayJson
    assert problems({"seat": 1, "verb": "pass", "count": 2}, GoatPlayJson) == []
    assert problems({"seat": 1, "verb": "jump", "count": 2, "x": 1}, GoatPlayJson) == [
        "verb: expected one of ('lead', 'beat', 'pass', 'molodka'), got 'jump'",
        "x: unknown field"]
    assert problems({"seat": True, "verb": "pass", "count": 1}, GoatPlayJson) == [
        "seat: expected int, got True"]
