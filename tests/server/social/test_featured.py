"""Featured tables (issue 47) and a rated table's fewer chances to cheat (issue 48) over HTTP:
a rated table is featured while it is played, watched one deal behind by default, and its
chat is quick phrases while it is played (free text once it is over)."""

from __future__ import annotations

import random

from tests.server.helpers import Server
from tests.server.social.test_social import Browser, play_out
from tests.waiting import wait_until


def test_a_rated_table_is_watched_a_deal_behind_and_chats_in_phrases(server: Server) -> None:
    a = Browser(server, "Asha")
    try:
        r = a.send("POST", "/api/tables", {
            "game": "court-piece-2p", "options": {"target": 1}, "live": True,
            "chat_text": True, "seats": [{"type": "human"}, {"type": "bot", "level": "easy"}]})
        assert r.status_code == 201, r.text
        tid = r.json()["id"]
        info = a.http.get(f"/api/tables/{tid}/view?seat=0").json()["table"]
        assert info["spectator_delay"] == "deal"  # rated: the player and a rated bot
        # featured while it is played
        rows = a.http.get("/api/featured", params={"limit": 20}).json()
        mine = next(f for f in rows if f["id"] == tid)
        assert mine["seats"][0]["name"] == "Asha" and mine["seats"][1]["type"] == "bot"
        assert a.http.get("/api/featured", params={"limit": 0}).status_code in (400, 422)
        # quick phrases and emoji while it is played, no free text
        chat = f"/api/tables/{tid}/chat?seat=0"
        assert a.send("POST", chat, {"phrase": "good_luck"}).status_code == 200
        refused = a.send("POST", chat, {"text": "I hold all the hearts"})
        assert refused.status_code == 403, refused.text
        assert "quick phrases" in refused.json()["error"]["message"]
        play_out(tid, {0: a}, random.Random(2))
        # over: free text again
        sent = a.send("POST", chat, {"text": "good game"})
        assert sent.status_code == 200 and sent.json()["sent"]["text"] == "good game"
        wait_until(lambda: all(f["id"] != tid for f in
                               a.http.get("/api/featured", params={"limit": 20}).json()),
                   timeout=10, what="the finished table to leave the featured ones")
        # a table a player plays at their own pace is not delayed by default
        r = a.send("POST", "/api/tables", {
            "game": "court-piece-2p", "live": False,
            "seats": [{"type": "human"}, {"type": "bot", "level": "easy"}]})
        tid2 = r.json()["id"]
        info = a.http.get(f"/api/tables/{tid2}/view?seat=0").json()["table"]
        assert info["spectator_delay"] == "none"
    finally:
        a.http.close()
