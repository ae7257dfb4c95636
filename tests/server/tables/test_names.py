"""Names are plain text under one rule everywhere (issue 24, part 5): a seat's name given at a
new table or a join follows a player's name's rule (1 to 24 characters, trimmed, no control or
direction characters), and comes back as the same text, never as markup."""

from __future__ import annotations

import httpx

from tests.server.helpers import Server


def test_seat_names_follow_the_players_name_rule(server: Server) -> None:
    with httpx.Client(base_url=server.base, timeout=20) as c:
        def create(name: str) -> httpx.Response:
            return c.post("/api/tables", json={
                "game": "court-piece-2p", "live": False, "open": True,
                "seats": [{"type": "human", "name": name}, {"type": "human"}]})

        for bad, why in (("a\u202eevil", "control characters (U+202E)"),
                         ("x" * 25, "at most 24 characters, not 25"),
                         ("   ", "must not be empty"), ("tab\there", "(U+0009)")):
            r = create(bad)
            assert r.status_code == 400, (bad, r.text)
            message = r.json()["error"]["message"]
            if bad.startswith("tab"):  # the request's edge refuses a control character first
                assert message.startswith("seats[0].name: text holds no control"), r.text
                continue
            assert message.startswith("seats[0].name: name must"), r.text
            assert why in message
        r = create("  <b>Bold</b> & co  ")
        assert r.status_code == 201, r.text
        tid = r.json()["id"]
        seats = c.get(f"/api/tables/{tid}").json()["table"]["seats"]
        assert seats[0]["name"] == "<b>Bold</b> & co"  # trimmed, the same text, not escaped
        r = c.post(f"/api/tables/{tid}/join", json={"name": "\u200fhidden"})
        assert r.status_code == 400 and r.json()["error"]["message"].startswith(
            "name: name must not hold control characters")
        r = c.post(f"/api/tables/{tid}/join", json={"name": "Сергей 7"})
        assert r.status_code == 200, r.text
        assert c.get(f"/api/tables/{tid}").json()["table"]["seats"][1]["name"] == "Сергей 7"
