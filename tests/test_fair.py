"""Fair deals, taash-shuffle/1 (RECORD.md "Fair deals"): the derivation, its proof in
`taash record verify` (exit 3) and `taash record random --fair`."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from taash import fair
from taash.games import GAMES, get_game
from taash.games.base import RecordError
from taash.record import ReplayError, random_record, validate, verify
from tests.conftest import CONFORMANCE, run_taash

SECRET = "5a194091da224dc213651c3361141787dd3207216a25e7d17ee44548965f508f"
COMMIT = "1328691e31a77df42f274d24fabca11667fea2ff7d4b09c12638f47a5a1f51ec"
VECTOR = {  # RECORD.md's test vector: table k3v9x2, deal 0, seat 0 gave "a1"
    "court-piece": ("6D AD 2S AH JS 7D 5S 6H", None),
    "court-piece-2p": ("QH JH 8S JC 3H 2S AD 4H", None),
    "goat": ("TD 8D 9H 7S KC QC 6D JC", "8S"),
}
FAIR_CP = json.loads((CONFORMANCE / "court-piece-fair-court-piece.json").read_text())["record"]


def seeds_of(game: str, first: str = "a1") -> list[str]:
    return [first] + [""] * (get_game(game).num_seats - 1)


def verify_cli(rec: Any, tmp_path: Path) -> Any:
    f = tmp_path / "r.json"
    f.write_text(json.dumps(rec))
    return run_taash("record", "verify", str(f))


# -- the derivation ----------------------------------------------------------------------------
def test_commit_of_the_test_vector() -> None:
    assert fair.commit(SECRET) == COMMIT


@pytest.mark.parametrize("game", sorted(VECTOR))
def test_the_test_vector(game: str) -> None:
    prefix, trump_card = VECTOR[game]
    deck, tc = fair.derive(game, "k3v9x2", 0, seeds_of(game), SECRET)
    assert deck[:8] == prefix.split()
    assert tc == trump_card


def test_context_is_json_without_whitespace_with_standard_escapes() -> None:
    assert fair.context("goat", "k3v9x2", 0, ["a1", "", "", ""]) == (
        b'["taash-shuffle/1","goat","k3v9x2",0,["a1","","",""]]')
    assert fair.context("court-piece-2p", "", 3, ['"', "\\"]) == (
        b'["taash-shuffle/1","court-piece-2p","",3,["\\"","\\\\"]]')


def test_the_start_order_is_canonical_not_the_games_rank_order() -> None:
    goat = fair.canonical_pack("goat")  # Goat's ten ranks above its king, but starts after 9
    assert goat[:9] == ["6S", "7S", "8S", "9S", "TS", "JS", "QS", "KS", "AS"]
    assert goat[-1] == "AC" and len(goat) == 36
    cp = fair.canonical_pack("court-piece")
    assert cp[:2] == ["2S", "3S"] and cp[13] == "2H" and cp[-1] == "AC"


secrets_st = st.binary(min_size=32, max_size=32).map(bytes.hex)
seed_st = st.text(st.characters(min_codepoint=0x21, max_codepoint=0x7E), max_size=64)
table_st = st.from_regex(r"[A-Za-z0-9_-]{0,64}", fullmatch=True)


@st.composite
def inputs(draw: Any) -> tuple[str, str, int, list[str], str]:
    game = draw(st.sampled_from(sorted(GAMES)))
    seeds = draw(st.lists(seed_st, min_size=get_game(game).num_seats,
                          max_size=get_game(game).num_seats))
    return game, draw(table_st), draw(st.integers(0, 10_000)), seeds, draw(secrets_st)


@pytest.mark.slow
@settings(max_examples=60, deadline=None)
@given(inputs())
def test_a_derived_deck_is_a_permutation_of_the_pack_and_reproducible(
        args: tuple[str, str, int, list[str], str]) -> None:
    game = args[0]
    deck, tc = fair.derive(*args)
    assert sorted(deck) == sorted(get_game(game).pack().full_deck())
    assert fair.derive(*args) == (deck, tc)
    if game == "goat":
        assert tc in deck[16:36]
    else:
        assert tc is None


@settings(max_examples=40, deadline=None)
@given(inputs(), st.data())
def test_a_changed_seed_changes_the_deck(args: tuple[str, str, int, list[str], str],
                                         data: Any) -> None:
    game, table, deal, seeds, secret = args
    seat = data.draw(st.integers(0, len(seeds) - 1))
    other = data.draw(seed_st.filter(lambda s: s != seeds[seat]))
    changed = [*seeds[:seat], other, *seeds[seat + 1:]]
    assert fair.derive(game, table, deal, changed, secret)[0] != \
        fair.derive(game, table, deal, seeds, secret)[0]
    assert fair.derive(game, table, deal + 1, seeds, secret)[0] != \
        fair.derive(game, table, deal, seeds, secret)[0]


# -- form ----------------------------------------------------------------------------------------
def with_fair(value: Any, key: str | None = None) -> dict[str, Any]:
    """FAIR_CP with deal 0's fair object (or one key of it) replaced; KeyError removes it."""
    rec = copy.deepcopy(FAIR_CP)
    node = rec["deals"][0]
    if key is not None:
        node = node["fair"]
    k = key or "fair"
    if value is KeyError:
        del node[k]
    else:
        node[k] = value
    return rec


BAD_FORM = [
    ("fair null", None, None),
    ("fair a list", [], None),
    ("scheme unknown", "taash-shuffle/2", "scheme"),
    ("scheme missing", KeyError, "scheme"),
    ("table missing", KeyError, "table"),
    ("table null", None, "table"),
    ("table with a dot", "t.1", "table"),
    ("table too long", "t" * 65, "table"),
    ("commit missing", KeyError, "commit"),
    ("commit upper case", COMMIT.upper(), "commit"),
    ("commit short", COMMIT[:63], "commit"),
    ("secret null", None, "secret"),
    ("secret not hex", "g" * 64, "secret"),
    ("seeds missing", KeyError, "seeds"),
    ("seeds not a list", "abc", "seeds"),
    ("seeds one short", ["", "", ""], "seeds"),
    ("a seed with a space", ["a b", "", "", ""], "seeds"),
    ("a seed too long", ["x" * 65, "", "", ""], "seeds"),
    ("a seed not a string", [1, "", "", ""], "seeds"),
    ("a seed not ascii", ["\u00e9", "", "", ""], "seeds"),
]


@pytest.mark.parametrize(("why", "value", "key"), BAD_FORM, ids=[b[0] for b in BAD_FORM])
def test_a_fair_object_of_the_wrong_form_is_malformed(why: str, value: Any,
                                                      key: str | None) -> None:
    with pytest.raises(RecordError, match=r"^deals\[0\]\.fair"):
        validate(with_fair(value, key))


def test_the_widest_allowed_form_is_accepted() -> None:
    rec = with_fair("x" * 64, "table")
    rec["deals"][0]["fair"]["extra"] = {"anything": None}  # other keys are ignored
    validate(rec)
    validate(with_fair([*FAIR_CP["deals"][0]["fair"]["seeds"][:3], "~" * 64], "seeds"))


def test_a_malformed_fair_object_exits_2_before_any_proof(tmp_path: Path) -> None:
    rec = with_fair(None, "secret")
    rec["deals"][1]["fair"]["commit"] = "0" * 64  # a failing proof is not reported first
    out = verify_cli(rec, tmp_path)
    assert out.returncode == 2 and out.stdout == "", out.stderr
    assert len(out.stderr.strip().splitlines()) == 1 and "Traceback" not in out.stderr


# -- proofs in verify --------------------------------------------------------------------------
def test_fair_is_true_when_checked_and_null_without_a_secret_or_a_fair() -> None:
    rec = with_fair(KeyError, "secret")
    del rec["deals"][1]["fair"]
    assert [d["fair"] for d in verify(rec)["deals"]] == [None, None, True]


def test_an_incomplete_deal_keeps_fair_and_cards_compare_in_canonical_form() -> None:
    rec = copy.deepcopy(FAIR_CP)
    rec["deals"][2]["actions"] = rec["deals"][2]["actions"][:5]
    rec["deals"][2]["deck"] = [c.lower().replace("t", "10") for c in rec["deals"][2]["deck"]]
    deals = verify(rec)["deals"]
    assert deals[2]["complete"] is False and deals[2]["winner"] is None
    assert [d["fair"] for d in deals] == [True, True, True]


def goat_fair() -> dict[str, Any]:
    """A fair Goat record of three games, the last with no actions yet."""
    rec = random_record("goat", seed=5, deals=3, fair=True)
    rec["deals"][2]["actions"] = []
    return rec


def swap_first_cards(deal: dict[str, Any]) -> None:
    deal["deck"][0], deal["deck"][1] = deal["deck"][1], deal["deck"][0]


def test_the_first_failing_deal_and_check_is_named() -> None:
    rec = goat_fair()
    last = rec["deals"][2]
    stock = [c for c in last["deck"][16:36] if c != last["trump_card"]]
    last["trump_card"] = stock[0]
    with pytest.raises(fair.NotFair) as e:
        verify(rec)
    assert (e.value.deal, e.value.reason.split()[0]) == (2, "trump_card")
    swap_first_cards(last)  # deck is checked before trump_card
    with pytest.raises(fair.NotFair) as e:
        verify(rec)
    assert (e.value.deal, e.value.reason.split()[0]) == (2, "deck")
    last["fair"]["commit"] = fair.commit("00" * 32)  # commit before deck
    with pytest.raises(fair.NotFair) as e:
        verify(rec)
    assert (e.value.deal, e.value.reason.split()[0]) == (2, "commit")


def test_an_illegal_action_is_reported_before_a_failing_proof() -> None:
    rec = copy.deepcopy(FAIR_CP)
    rec["deals"][0]["fair"]["commit"] = "0" * 64
    rec["deals"][1]["actions"][1]["seat"] = 0  # not seat 0's turn
    with pytest.raises(ReplayError, match=r"^deal 1, action 1, seat 0: "):
        verify(rec)


@pytest.mark.parametrize("reason", ["commit", "deck", "trump_card"])
def test_a_failing_proof_exits_3_with_one_line(reason: str, tmp_path: Path) -> None:
    rec = goat_fair()
    if reason == "commit":
        rec["deals"][1]["fair"]["commit"] = fair.commit("11" * 32)
    elif reason == "deck":
        seeds = rec["deals"][0]["fair"]["seeds"]
        seeds[3] = "x" if seeds[3] != "x" else "y"
        rec["deals"][1]["fair"]["commit"] = "0" * 64  # a later deal fails too
    else:
        last = rec["deals"][2]
        last["trump_card"] = next(c for c in last["deck"][16:36] if c != last["trump_card"])
    deal = {"commit": 1, "deck": 0, "trump_card": 2}[reason]
    out = verify_cli(rec, tmp_path)
    assert out.returncode == 3, out.stderr
    assert out.stdout == ""
    lines = out.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"deal {deal}: not fair: {reason} "), lines


# -- record random --fair ----------------------------------------------------------------------
@pytest.mark.parametrize("game", sorted(GAMES))
def test_random_fair_records_verify_with_every_deal_fair(game: str, tmp_path: Path) -> None:
    made = run_taash("record", "random", "--game", game, "--seed", "11", "--deals", "3",
                     "--fair")
    assert made.returncode == 0, made.stderr
    rec = json.loads(made.stdout)
    assert rec == random_record(game, seed=11, deals=3, fair=True)  # the same seed, the same
    for i, d in enumerate(rec["deals"]):
        f = d["fair"]
        assert f["scheme"] == "taash-shuffle/1" and f["table"] == ""
        assert f["commit"] == fair.commit(f["secret"])
        assert fair.derive(game, "", i, f["seeds"], f["secret"]) == (d["deck"],
                                                                       d.get("trump_card"))
    f = tmp_path / "r.json"
    f.write_text(made.stdout)
    out = run_taash("record", "verify", str(f))
    assert out.returncode == 0, out.stderr
    assert [d["fair"] for d in json.loads(out.stdout)["deals"]] == [True] * 3


def test_random_fair_whole_matches_verify() -> None:
    for game in sorted(GAMES):
        for seed in range(3):
            rec = random_record(game, seed=seed, fair=True)
            assert random_record(game, seed=seed, fair=True) == rec
            summary = verify(json.dumps(rec))
            assert all(d["fair"] is True for d in summary["deals"])
            assert len(summary["deals"]) == len(rec["deals"])
    assert random_record("goat", seed=1, fair=True) != random_record("goat", seed=2, fair=True)
