"""The guided first deals and the rules pages' words (issue 49), without a browser: the shipped
deals are what the rules core makes of their seeds, each teaches every lesson of its game,
each lesson and note has words in the four languages, and every rule id the core can refuse a
move with has an explanation (a title, plain words) in each language and an example picture."""

from __future__ import annotations

import ast
import json
import re
from pathlib import Path

import pytest

from taash import learn
from taash.games import CLASSES, game_class

WEB = Path(__file__).resolve().parents[1] / "src" / "taash" / "web"
GAMES_SRC = Path(learn.__file__).parent / "games"
LANGS = ("en", "hi", "ur", "ru")
RULE = re.compile(r"^(CP|TW|GT)-\d+$")


def shipped(game: str) -> dict[str, object]:
    data = json.loads((WEB / "learn" / f"{game}.json").read_text(encoding="utf-8"))
    assert isinstance(data, dict)
    return data


def refusable_rules() -> set[str]:
    """Every rule id the rules core can refuse with: the first argument of each
    ``IllegalAction(...)``, each class's ``play_rule`` and ``call_rule``, and what a game's
    ``over_rule`` returns (a move after the match ended)."""
    found: set[str] = set()
    for path in GAMES_SRC.glob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            consts: list[ast.expr] = []
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "IllegalAction":
                consts = node.args[:1]
            elif isinstance(node, ast.AnnAssign | ast.Assign):
                targets = [node.target] if isinstance(node, ast.AnnAssign) else node.targets
                if any(getattr(t, "id", "") in ("play_rule", "call_rule") for t in targets):
                    consts = [node.value] if node.value is not None else []
            elif isinstance(node, ast.FunctionDef) and node.name.endswith("over_rule"):
                consts = [r.value for r in ast.walk(node)
                          if isinstance(r, ast.Return) and r.value is not None]
            found |= {c.value for c in consts if isinstance(c, ast.Constant)
                      and isinstance(c.value, str) and RULE.match(c.value)}
    return found


@pytest.mark.parametrize("game", list(CLASSES))
def test_the_shipped_deal_is_the_cores_and_teaches_every_lesson(game: str) -> None:
    made = learn.script(game)
    assert json.loads(json.dumps(made)) == shipped(game)  # python -m taash.learn rewrites it
    assert learn.teaches(made), made["lessons"]
    steps = made["steps"]
    assert isinstance(steps, list)
    mine = [s for s in steps if s["seat"] == learn.LEARNER]
    assert len(mine) >= 5 and all("lesson" in s for s in mine)
    # each of the learner's moves is one the table offers in the view before it
    before = made["start"]
    for step in steps:
        if step["seat"] == learn.LEARNER:
            assert step["action"] in before["legal_actions"], step["action"]
        before = step["view"]
    # every wrong move the page can answer has the core's rule id
    assert all(r["rule"] for s in mine for r in s["refusals"].values())
    assert any(s["refusals"] for s in mine)


def test_every_rule_the_core_refuses_with_is_explained_in_every_language() -> None:
    rules = refusable_rules()
    assert {"CP-4", "CP-5", "TW-4", "GT-6", "GT-7", "GT-8"} <= rules  # the source was read
    examples = json.loads((WEB / "rules" / "examples.json").read_text(encoding="utf-8"))
    assert rules <= set(examples), rules - set(examples)
    ids = set(CLASSES)
    for rule in rules:
        assert examples[rule]["game"] in ids
        game_class(examples[rule]["game"])
    for lang in LANGS:
        words = json.loads((WEB / "rules" / f"{lang}.json").read_text(encoding="utf-8"))
        missing = [r for r in rules if not (words.get(r, {}).get("title")
                                            and words.get(r, {}).get("text"))]
        assert missing == [], (lang, missing)
        assert set(words) == set(examples)


def test_every_lesson_has_words_in_every_language() -> None:
    ids: set[str] = set()
    for game in CLASSES:
        s = shipped(game)
        for step in s["steps"]:  # type: ignore[attr-defined]
            if "lesson" in step:
                ids.add(step["lesson"]["id"])
            ids |= {n["id"] for n in step.get("notes", [])}
    assert {"call", "follow", "cut", "coat", "molodka", "draw", "points"} <= ids
    for lang in LANGS:
        words = json.loads((WEB / "i18n" / f"{lang}.json").read_text(encoding="utf-8"))
        missing = [i for i in ids if f"learn_{i}" not in words]
        assert missing == [], (lang, missing)
        assert "learn_trick_won_sets" in words
