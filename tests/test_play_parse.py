"""Reading what the player types at `taash play`, without a terminal (taash.play.parse)."""

from __future__ import annotations

import pytest

from taash.play.parse import (
    Command,
    GoatCards,
    Turn,
    Unreadable,
    command,
    read_answer,
    read_card,
    read_trump,
    read_verb,
    read_yes,
    suit_menu,
)

HAND = ("AS", "TH", "9H", "2C")
COURT = Turn(numbered=HAND)
CALL = Turn(trump_call=True, suit_menu=("S", "H", "C"))
GOAT = Turn(goat=True, numbered=HAND, hand=("9H", "TH", "AS", "2C"), can_molodka=True)


@pytest.mark.parametrize("typed,said", [
    ("", Command.NOTHING), ("q", Command.QUIT), ("quit", Command.QUIT), ("exit", Command.QUIT),
    ("?", Command.HELP), ("help", Command.HELP), ("hint", Command.HINT), ("t", Command.TABLE),
    ("table", Command.TABLE), ("show", Command.TABLE),
])
def test_commands_are_read_before_anything_else(typed: str, said: Command) -> None:
    assert command(typed) is said
    for turn in (COURT, CALL, GOAT):
        assert read_answer(typed, turn) is said


def test_commands_ignore_case_in_answers() -> None:
    assert read_answer("HELP", COURT) is Command.HELP
    assert read_answer("Q", GOAT) is Command.QUIT


@pytest.mark.parametrize("typed,action", [
    ("1", "play:AS"), ("4", "play:2C"), ("10h", "play:TH"), ("th", "play:TH"),
    ("9\u2665", "play:9H"),
    (" as ", "play:AS"),  # (the table strips answers; the parser splits on spaces and commas)
    ("play:ZZ", "play:ZZ"), ("lead:9H", "lead:9H"),  # full actions go to the core as typed
])
def test_court_piece_cards(typed: str, action: str) -> None:
    assert read_answer(typed, COURT) == action


@pytest.mark.parametrize("typed,message", [
    ("99", "no card number 99: your cards are 1 to 4"),
    ("0", "no card number 0: your cards are 1 to 4"),
    ("zz", "not a card or a number: 'zz' (type ? for help)"),
    ("1 2", "play one card at a time"),
    ("AS,KH", "play one card at a time"),
])
def test_court_piece_unreadable(typed: str, message: str) -> None:
    with pytest.raises(Unreadable) as e:
        read_answer(typed, COURT)
    assert str(e.value) == message


def test_words_that_are_only_separators_ask_again() -> None:
    assert read_answer(",", COURT) is Command.NOTHING


@pytest.mark.parametrize("typed,action", [
    ("1", "trump:S"), ("2", "trump:H"), ("3", "trump:C"), ("h", "trump:H"), ("hearts", "trump:H"),
    ("heart", "trump:H"), ("\u2663", "trump:C"), ("d", "trump:D"),  # the core refuses D if barred
    ("trump:Z", "trump:Z"),
])
def test_trump_call(typed: str, action: str) -> None:
    assert read_answer(typed, CALL) == action


@pytest.mark.parametrize("typed,message", [
    ("9", "choose 1 to 3, or a suit letter"),
    ("0", "choose 1 to 3, or a suit letter"),
    ("xyz", "not a suit: 'xyz' (type S, H, D or C, or a number from the list)"),
    ("as", "not a suit: 'as' (type S, H, D or C, or a number from the list)"),
])
def test_trump_call_unreadable(typed: str, message: str) -> None:
    with pytest.raises(Unreadable) as e:
        read_answer(typed, CALL)
    assert str(e.value) == message


def test_read_trump_lower_cases_nothing_itself() -> None:
    assert read_trump("s", ["S"]) == "trump:S"
    assert read_answer("S", CALL) == "trump:S"


@pytest.mark.parametrize("typed,action", [
    ("b 2 3", "beat:TH,9H"), ("beat 2,3", "beat:TH,9H"), ("P 4", "pass:2C"),
    ("pass 4", "pass:2C"), ("l 1", "lead:AS"), ("m 2 3", "molodka:TH,9H"),
    ("m", "molodka:9H,TH,AS,2C"),  # the whole hand, in the core's order
    ("molodka", "molodka:9H,TH,AS,2C"),
])
def test_goat_verbs(typed: str, action: str) -> None:
    assert read_answer(typed, GOAT) == action


def test_goat_cards_without_a_verb() -> None:
    assert read_answer("2 3", GOAT) == GoatCards(("TH", "9H"))
    assert read_answer("kh", GOAT) == GoatCards(("KH",))  # held or not: the core decides
    leading = Turn(goat=True, numbered=HAND, leading=True)
    assert read_answer("2 3", leading) == "lead:TH,9H"
    assert read_answer("b 2", leading) == "beat:TH"  # a verb typed is kept (the core refuses)


@pytest.mark.parametrize("typed,message", [
    ("b", "beat which cards?"), ("pass", "pass which cards?"), ("l", "lead which cards?"),
    ("b 9", "no card number 9: your cards are 1 to 4"),
])
def test_goat_unreadable(typed: str, message: str) -> None:
    with pytest.raises(Unreadable) as e:
        read_answer(typed, GOAT)
    assert str(e.value) == message


def test_no_molodka_to_play() -> None:
    with pytest.raises(Unreadable, match="you cannot play a molodka now"):
        read_answer("m", Turn(goat=True, hand=HAND))


def test_verb_letters_are_cards_in_court_piece() -> None:
    with pytest.raises(Unreadable, match="not a card or a number: 'b'"):
        read_answer("b 1", COURT)


def test_read_card() -> None:
    assert read_card("Q\u2660", ()) == "QS"
    assert read_card("10\u2666", ()) == "TD"
    with pytest.raises(Unreadable):
        read_card("1", ())


def test_suit_menu_is_in_suit_order() -> None:
    assert suit_menu(["trump:C", "trump:H", "trump:S", "trump:D"]) == ["S", "H", "D", "C"]
    assert suit_menu([]) == []


def test_read_verb() -> None:
    fits = ["beat", "pass"]
    assert read_verb("1", fits) == "beat"
    assert read_verb("2", fits) == "pass"
    assert read_verb("3", fits) is None
    assert read_verb("b", fits) == "beat"
    assert read_verb("pass", fits) == "pass"
    assert read_verb("m", fits) is None
    assert read_verb("x", fits) is None


@pytest.mark.parametrize("typed,yes", [
    ("y", True), ("yes", True), ("", False), ("n", False), ("no", False), ("q", None),
    ("maybe", None),
])
def test_read_yes(typed: str, yes: bool | None) -> None:
    assert read_yes(typed) is yes


def test_every_game_has_a_narration() -> None:
    from taash.games import GAMES
    from taash.play.table import NARRATIONS

    assert set(NARRATIONS) == set(GAMES)
    for game, cls in NARRATIONS.items():
        assert cls.title, game
