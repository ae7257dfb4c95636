"""The web files without a browser: every UI string translated, every key the code uses
defined, and nothing fetched from outside the server."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

WEB = Path(__file__).resolve().parents[2] / "src" / "taash" / "web"
PLURAL = re.compile(r"_(zero|one|two|few|many|other)$")
# The plural categories each language's Intl.PluralRules uses for whole numbers.
FORMS = {"en": {"one", "other"}, "ur": {"one", "other"}, "hi": {"one", "other"},
         "ru": {"one", "few", "many", "other"}}


def strings(lang: str) -> dict[str, str]:
    data = json.loads((WEB / "i18n" / f"{lang}.json").read_text(encoding="utf-8"))
    assert isinstance(data, dict)
    return data


def bases(d: dict[str, str]) -> tuple[set[str], set[str]]:
    plain = {k for k in d if not PLURAL.search(k)}
    plural = {PLURAL.sub("", k) for k in d if PLURAL.search(k)}
    return plain, plural


@pytest.mark.parametrize("lang", ["ur", "hi", "ru"])
def test_every_string_is_translated(lang: str) -> None:
    en_plain, en_plural = bases(strings("en"))
    d = strings(lang)
    plain, plural = bases(d)
    assert plain == en_plain
    assert plural == en_plural
    for key in plural:
        assert {f"{key}_{f}" for f in FORMS[lang]} <= set(d), key
    en = strings("en")
    for key, text in d.items():
        en_text = en.get(key) or en[PLURAL.sub("", key) + "_other"]
        assert set(re.findall(r"\{\w+\}", text)) <= set(re.findall(r"\{\w+\}", en_text)) | {"{n}"}
    # Translated, not copied (short codes, digits and names may match English).
    short = re.compile(r"[\w{}. ()\u2013-]{1,8}")
    same = [k for k in d if k in en and d[k] == en[k] and not short.fullmatch(en[k])
            and "@" not in en[k]]
    assert same == []


def test_every_key_used_exists() -> None:
    en = strings("en")
    code = "\n".join(p.read_text(encoding="utf-8") for p in WEB.rglob("*.js")
                     if p.name != "i18n.js")
    used = set(re.findall(r"\bt\('([\w-]+)'", code))
    assert used
    missing = {k for k in used if k not in en and f"{k}_other" not in en}
    assert missing == set()


@pytest.mark.parametrize("lang", ["en", "ur", "hi", "ru"])
def test_every_illegal_action_reason_has_words(lang: str) -> None:
    """The table says why an action is refused in the page's language: a sentence for every
    key the rules core gives (taash.games.base.ILLEGAL_KEYS)."""
    from taash.games.base import ILLEGAL_KEYS

    d = strings(lang)
    missing = {k for k in ILLEGAL_KEYS
               if f"illegal_{k}" not in d and f"illegal_{k}_other" not in d}
    assert missing == set()


def test_nothing_comes_from_outside() -> None:
    html = (WEB / "index.html").read_text(encoding="utf-8")
    for ref in re.findall(r'(?:href|src)="([^"]+)"', html):
        assert ref.startswith("/assets/"), ref
        assert (WEB / ref.removeprefix("/assets/")).is_file(), ref
    for p in WEB.rglob("*"):
        if p.suffix in (".js", ".css", ".html", ".json", ".webmanifest"):
            text = p.read_text(encoding="utf-8")
            assert not re.search(r"https?://(?!www\.w3\.org/)", text), p.name
            assert "@import" not in text and "url(http" not in text, p.name
