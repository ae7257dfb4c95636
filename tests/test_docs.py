"""The documents hold together: the rules and record copies match ../shared/, every relative
link in the README and docs points at a file of this repository, and the README gives the two
commands."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared"
COPIES = ("RULES.md", "RECORD.md")
# The documents whose links must resolve inside the repository, wherever it is checked out.
DOCUMENTS = ("README.md", "CHANGELOG.md", "docs/bots.md", "docs/playing.md", "bench/RESULTS.md")
LINK = re.compile(r"\]\(([^)\s]+)\)|<img\s[^>]*src=\"([^\"]+)\"")


def links(text: str) -> list[str]:
    """The relative link targets of a Markdown text (web addresses and in-page anchors left out).

    >>> links('[a](docs/A.md#x) [b](https://x.org) [c](#top) <img src="s.png" width="9">')
    ['docs/A.md', 's.png']
    """
    out = []
    for m in LINK.finditer(text):
        target = (m.group(1) or m.group(2)).split("#", 1)[0]
        if target and not re.match(r"[a-z][a-z0-9+.-]*:", target):
            out.append(target)
    return out


@pytest.mark.parametrize("name", COPIES)
def test_copy_matches_shared(name: str) -> None:
    original = SHARED / name
    if not original.is_file():
        pytest.skip(f"{original} is absent: this checkout has no ../shared/ to compare with")
    copy = ROOT / "docs" / name
    assert copy.is_file(), f"docs/{name} is missing: copy it from {original}"
    assert copy.read_bytes() == original.read_bytes(), (
        f"docs/{name} differs from {original}: copy it again (cp {original} docs/{name})")


@pytest.mark.parametrize("name", DOCUMENTS)
def test_relative_links_resolve(name: str) -> None:
    doc = ROOT / name
    assert doc.is_file(), f"{name} is missing"
    targets = links(doc.read_text(encoding="utf-8"))
    if name == "README.md":
        assert targets, "the README links to nothing: the link pattern is broken"
    broken = []
    for target in targets:
        path = (doc.parent / target).resolve()
        if not path.is_relative_to(ROOT) or not path.exists():
            broken.append(target)
    assert not broken, f"{name} links outside the repository or to nothing: {broken}"


def test_readme_names_the_two_commands() -> None:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    for command in ("./scripts/run", "./scripts/test"):
        assert command in text, f"the README no longer gives {command}"
        assert (ROOT / command).is_file(), f"the README gives {command}, which does not exist"

