"""`taash play --plain` (issue 50): for a screen reader, which reads the terminal line by line.
No escape code at all (no colour, no cursor movement) even where colour is forced, no rule of
dashes, no arrow or cross for a screen reader to spell out; cards in words, a card that may not
be played said so (not greyed), and the words of a turn."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

pytestmark = pytest.mark.slow

TWO = ["court-piece-2p", "--seed", "3", "--options", '{"target": 1}']


def play(*args: str, answers: str) -> str:
    # FORCE_COLOR: Rich would colour this output as a terminal's
    env = dict(os.environ, PYTHONUNBUFFERED="1", FORCE_COLOR="1", COLUMNS="60")
    done = subprocess.run([sys.executable, "-m", "taash", "play", *args], input=answers,
                          text=True, capture_output=True, timeout=120, env=env)
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_plain_play_is_read_line_by_line() -> None:
    # the call (spades), two plays, a card the rules refuse, and leaving
    out = play(*TWO, "--plain", answers="1\n1\n1\n1\nq\n")
    assert "\x1b" not in out and "\r" not in out
    assert not {"\u2500", "\u2190", "\u2192", "\u2717", "\u2660", "\u2665"} & set(out), out
    lines = out.splitlines()
    assert "Deal 1." in lines
    assert "Your hand, 13 cards:" in lines
    assert "  Spades (trump): 1: king, 2: 8, 3: 5." in lines
    assert "  You play king of spades" in lines
    # a turn that must follow suit: the cards that may not be played are said to be so
    assert "You may play 4 of your 11 cards." in lines
    assert "  Spades (trump): 1: 5 (may not be played)." in lines
    assert "Table: Bot (1) 4 of hearts  (winning)" in lines
    assert "Not allowed: must follow suit: you hold hearts (TW-4)" in lines
    # a line longer than the terminal is one line still (the terminal wraps it, not taash)
    assert any(len(x) > 60 and x.startswith("  Diamonds: ") for x in lines), lines


def test_without_plain_the_same_turns_are_in_colour() -> None:
    out = play(*TWO, answers="1\n1\nq\n")
    assert "\x1b[" in out and "\u2500" in out
