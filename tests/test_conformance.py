"""Every scenario in ../shared/conformance/ through the real `taash record verify`."""

from __future__ import annotations

import json

import pytest

from tests.conftest import CONFORMANCE, run_taash

SCENARIOS = sorted(CONFORMANCE.glob("*.json"))


def test_scenarios_are_there() -> None:
    assert len(SCENARIOS) >= 17, f"conformance scenarios missing from {CONFORMANCE}"


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: p.stem)
def test_scenario(path, tmp_path) -> None:
    case = json.loads(path.read_text())
    rec = tmp_path / "record.json"
    rec.write_text(json.dumps(case["record"]))
    out = run_taash("record", "verify", str(rec))
    expect = case["expect"]
    assert "Traceback" not in out.stderr
    if "summary" in expect:
        assert out.returncode == 0, out.stderr
        got = json.loads(out.stdout)
        _assert_contains(expect["summary"], got)
        return
    err = expect["error"]
    assert out.returncode == err["exit"], out.stderr
    assert out.stdout == ""
    lines = out.stderr.strip().splitlines()
    assert len(lines) == 1, out.stderr
    if err["exit"] == 1:
        assert lines[0].startswith(f"deal {err['deal']}, action {err['action']}, seat "), lines[0]
        assert " is illegal: " in lines[0]
    if err["exit"] == 3:  # the first word of the reason among commit, deck, trump_card
        assert lines[0].startswith(f"deal {err['deal']}: not fair: "), lines[0]
        words = lines[0].split(": not fair: ", 1)[1].replace(":", " ").split()
        assert next(w for w in words if w in ("commit", "deck", "trump_card")) == err["reason"]


def _assert_contains(expected, got, where="summary") -> None:
    if isinstance(expected, dict):
        assert isinstance(got, dict), where
        for k, v in expected.items():
            assert k in got, f"{where}.{k} missing"
            _assert_contains(v, got[k], f"{where}.{k}")
    elif isinstance(expected, list):
        assert isinstance(got, list) and len(got) == len(expected), where
        for i, (e, g) in enumerate(zip(expected, got, strict=True)):
            _assert_contains(e, g, f"{where}[{i}]")
    else:
        assert got == expected and type(got) is type(expected), f"{where}: {got!r} != {expected!r}"
