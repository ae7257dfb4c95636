"""A challenge to a friend who is away reaches them through their notice channels (issue 28):
the webhook of their seat and their e-mail, on a server with real webhook and SMTP receivers."""

from __future__ import annotations

from tests.server.helpers import Server
from tests.server.notify.test_notify import Hooks, Inbox, hooks, notifying, smtp, wait  # noqa: F401
from tests.server.social.test_social import Browser


def test_an_away_friend_is_told_of_a_challenge(notifying: Server,  # noqa: F811
                                               smtp: tuple[Inbox, int],  # noqa: F811
                                               hooks: str) -> None:  # noqa: F811
    a, b = Browser(notifying, "Laila"), Browser(notifying, "Murad")
    # b asked for notices at a table of theirs
    t = b.send("POST", "/api/tables", {"game": "court-piece-2p", "live": False,
                                       "seats": [{"type": "human"},
                                                 {"type": "bot", "level": "easy"}]})
    tid = t.json()["id"]
    r = b.send("PUT", f"/api/tables/{tid}/notify?seat=0",
               {"webhook": hooks, "email": "murad@test.example"})
    assert r.status_code == 200, r.text
    code = a.http.get("/api/me/friends").json()["code"]
    assert b.send("POST", "/api/me/friends", {"code": code}).json()["state"] == "asked"
    assert a.send("POST", f"/api/me/friends/{b.id}/accept").json()["state"] == "friends"
    # b has not looked at the home page: away
    ch = a.send("POST", "/api/me/challenges", {"to": b.id, "game": "goat"}).json()
    wait(lambda: any(h.get("challenge") == ch["id"] for h in Hooks.received))
    hook = next(h for h in Hooks.received if h.get("challenge") == ch["id"])
    assert hook == {"type": "challenge", "challenge": ch["id"], "table": None,
                    "from": "Laila", "game": "goat", "live": False,
                    "expires": ch["expires"], "url": "http://play.example/"}
    inbox = smtp[0]
    wait(lambda: any("Laila challenges you" in m[1] for m in inbox.messages))
    to, subject, body = next(m for m in inbox.messages if "Laila challenges you" in m[1])
    assert to == ["murad@test.example"] and "goat" in subject
    assert "http://play.example/" in body
    # a has a webhook too, but is online (they just listed their friends): a challenge to
    # them shows on their page and is not sent out
    t = a.send("POST", "/api/tables", {"game": "court-piece-2p", "live": False,
                                       "seats": [{"type": "human"},
                                                 {"type": "bot", "level": "easy"}]})
    assert a.send("PUT", f"/api/tables/{t.json()['id']}/notify?seat=0",
                  {"webhook": hooks}).status_code == 200
    a.http.get("/api/me/friends")
    back = b.send("POST", "/api/me/challenges", {"to": a.id, "game": "goat"}).json()
    assert [c["id"] for c in a.http.get("/api/me/challenges").json()["received"]] == [back["id"]]
    # a challenge to b, still away, after it: its webhook is the positive sign that the one
    # before was handled (a webhook for it would have come first) instead of a fixed sleep
    after = a.send("POST", "/api/me/challenges", {"to": b.id, "game": "goat"}).json()
    wait(lambda: any(h.get("challenge") == after["id"] for h in Hooks.received))
    assert not any(h.get("challenge") == back["id"] for h in Hooks.received)
    a.http.close()
    b.http.close()
